// The study modes of issue 48 (static/js/): flashcards dealt and graded into FSRS under keys
// of their own, the exam's score per topic, the history's answers per day and retention.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fsrsLib from "../../static/vendor/ts-fsrs-5.4.2/index.mjs";
import { makeScheduler } from "../../static/js/schedule.js";
import { Store, dueIds, unscheduled } from "../../static/js/storage.js";
import { deal, daysUntil } from "../../static/js/flashcards.js";

const DAY = 24 * 3600 * 1000;
const T0 = new Date(2026, 0, 5, 9).getTime();

class FakeStorage {
  constructor() { this.map = new Map(); }
  getItem(key) { return this.map.has(key) ? this.map.get(key) : null; }
  setItem(key, value) { this.map.set(key, String(value)); }
  removeItem(key) { this.map.delete(key); }
}

test("a flashcard's grade is scheduled as FSRS rates it: Again soonest, Easy latest", () => {
  const scheduler = makeScheduler(fsrsLib);
  const dues = [1, 2, 3, 4].map((grade) => scheduler.plan({ c: [{ grade, time: T0 }] }).c.due - T0);
  assert.equal(dues[0], DAY, "Again: the next day (no short-term steps)");
  assert.ok(dues[0] <= dues[1] && dues[1] < dues[2] && dues[2] < dues[3], String(dues));
  const engine = fsrsLib.fsrs(fsrsLib.generatorParameters({ enable_short_term: false, enable_fuzz: false }));
  let card = fsrsLib.createEmptyCard(new Date(T0));
  card = engine.next(card, new Date(T0), fsrsLib.Rating.Hard).card;
  card = engine.next(card, new Date(T0 + 3 * DAY), fsrsLib.Rating.Easy).card;
  assert.equal(scheduler.cardAfter([{ grade: 4, time: T0 + 3 * DAY }, { grade: 2, time: T0 }]).due.getTime(), card.due.getTime(), "the grades replayed in order");
});

test("flashcards are kept under keys of their own, beside a question of the same id", () => {
  const store = new Store("/s/", new FakeStorage());
  store.addAttempt("gpu", { correct: true, choice: 0 }, T0);
  store.addReview("gpu:term", 3, T0);
  store.addReview("gpu:name", 1, T0);
  store.addReview("gpu:term", 5, T0); // no such grade
  store.addReview("GPU", 3, T0); // no such key
  const record = store.record();
  assert.deepEqual(Object.keys(record.attempts), ["gpu"]);
  assert.deepEqual(Object.keys(record.cards.attempts).sort(), ["gpu:name", "gpu:term"]);
  assert.deepEqual(unscheduled(record.cards).sort(), ["gpu:name", "gpu:term"]);
  const scheduler = makeScheduler(fsrsLib);
  store.setSchedule(scheduler.plan(record.cards.attempts), "cards");
  store.setSchedule({ "x:term": { due: T0, count: 1 } }); // a card's key is no question id
  assert.deepEqual(Object.keys(store.record().schedule), []);
  assert.deepEqual(dueIds(store.record().cards, T0 + DAY), ["gpu:name"], "Again is due the next day");
});

test("the cards to study are the due, longest overdue first, then the new in the glossary's order", () => {
  const keys = ["a:term", "b:term", "c:term", "d:term", "e:term"];
  const deck = {
    attempts: { "b:term": [{ grade: 3, time: T0 - 9 * DAY }], "c:term": [{ grade: 1, time: T0 - DAY }], "d:term": [{ grade: 4, time: T0 }], "x:term": [{ grade: 1, time: T0 }] },
    schedule: { "b:term": { due: T0 - 2 * DAY, count: 1 }, "c:term": { due: T0 - DAY, count: 1 }, "d:term": { due: T0 + 9 * DAY, count: 1 }, "x:term": { due: T0, count: 1 } },
  };
  assert.deepEqual(deal(keys, deck, T0), { due: ["b:term", "c:term"], fresh: ["a:term", "e:term"] });
  assert.equal(daysUntil(T0 + DAY, T0), 1);
  assert.equal(daysUntil(new Date(2026, 0, 6, 0, 30).getTime(), new Date(2026, 0, 5, 23, 30).getTime()), 1, "the next calendar day, an hour later");
});
