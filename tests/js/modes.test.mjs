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

test("an exam's score is counted per topic, a question not answered counted as missed", async () => {
  const { scoreOf, draw, endOf } = await import("../../static/js/exam.js");
  const exam = {
    started: T0, minutes: 30, order: ["a1", "b1", "a2", "c1", "a3"],
    answers: { a1: { correct: true, time: T0 }, b1: { correct: false, time: T0 }, a2: { correct: true, time: T0 }, c1: { correct: true, shown: true, time: T0 } },
  };
  const topicOf = (id) => id[0];
  const score = scoreOf(exam, topicOf, ["b", "a", "z"]);
  assert.deepEqual(score.topics, [{ topic: "b", right: 0, total: 1 }, { topic: "a", right: 2, total: 3 }, { topic: "c", right: 1, total: 1 }], "the topics' order, then any other; none without questions");
  assert.equal(score.right, 3);
  assert.equal(score.total, 5);
  assert.deepEqual(score.missed, ["b1", "a3"], "wrong or not answered, in the exam's order");
  assert.equal(endOf(exam), T0 + 30 * 60 * 1000);
  const drawn = draw(["a", "b", "c", "d"], 3, () => 0);
  assert.equal(drawn.length, 3);
  assert.equal(new Set(drawn).size, 3, "each question once");
  assert.equal(draw(["a", "b"], 5).length, 2, "no more than there are");
});

test("the exam's clock reads as minutes and seconds and announces 10, 5 and 1 minutes left once each", async () => {
  const { clockText, passedMark } = await import("../../static/js/exam.js");
  const MIN = 60 * 1000;
  assert.equal(clockText(30 * MIN), "30:00");
  assert.equal(clockText(61 * 1000 - 1), "1:01", "a second begun counts whole");
  assert.equal(clockText(2 * 60 * MIN + 5000), "2:00:05");
  assert.equal(clockText(-5000), "0:00");
  assert.equal(passedMark(10 * MIN + 1, 10 * MIN), 10);
  assert.equal(passedMark(10 * MIN, 10 * MIN - 1000), 0, "once");
  assert.equal(passedMark(12 * MIN, 30 * 1000), 1, "a jump over several marks says the last");
  assert.equal(passedMark(30 * MIN, 29 * MIN), 0);
});

test("an exam is kept while it runs, its answers become attempts once when it is handed in", () => {
  const store = new Store("/s/", new FakeStorage());
  assert.equal(store.startExam({ started: T0, minutes: 30, order: ["a", "b"] }), true);
  assert.equal(store.startExam({ started: T0, minutes: 0, order: ["a"] }), false, "no exam of no minutes");
  store.setExamAnswer(T0, "a", { correct: true, choice: 1 }, T0 + 1000);
  store.setExamAnswer(T0, "b", { correct: false, given: "x" }, T0 + 2000);
  store.setExamAnswer(T0, "b", null);
  store.setExamAnswer(T0, "z", { correct: true }, T0 + 3000); // not in the exam
  assert.deepEqual(Object.keys(store.record().exams[0].answers), ["a"]);
  assert.deepEqual({ ...store.record().attempts }, {}, "nothing counts before it is handed in");
  store.endExam(T0, T0 + 60e3);
  store.endExam(T0, T0 + 90e3); // twice: once
  store.setExamAnswer(T0, "b", { correct: true }, T0 + 4000); // after: no change
  const record = store.record();
  assert.equal(record.exams[0].ended, T0 + 60e3);
  assert.deepEqual(JSON.parse(JSON.stringify(record.attempts)), { a: [{ time: T0 + 1000, correct: true, choice: 1 }] });
  assert.deepEqual(unscheduled(record), ["a"], "to be scheduled like any other answer");
});

test("the history counts the answers of each of the last 30 days, the accuracy and the retention", async () => {
  const { answersPerDay, summary } = await import("../../static/js/history.js");
  const now = new Date(2026, 2, 30, 12).getTime(); // after a change of clocks in Europe
  const at = (daysAgo, hour = 10) => new Date(2026, 2, 30 - daysAgo, hour).getTime();
  const attempts = {
    a: [{ correct: false, time: at(40) }, { correct: true, time: at(3) }, { correct: true, time: at(0, 9) }], // first long ago: both in view are reviews
    b: [{ correct: true, time: at(3, 23) }, { correct: false, time: at(1) }],
    c: [{ correct: false, shown: true, time: at(0, 11) }],
    d: [{ correct: true, time: at(29, 1) }, { correct: true, time: at(30) }], // listed out of order
  };
  const days = answersPerDay(attempts, 30, now);
  assert.equal(days.length, 30);
  assert.equal(new Date(days[0].day).getDate(), 1, "30 days back to the 1st of March");
  assert.deepEqual(days.slice(-4).map(({ answers, right }) => [answers, right]), [[2, 2], [0, 0], [1, 0], [2, 1]]);
  assert.deepEqual([days[0].answers, days[0].right], [1, 1], "the first day's early answer");
  assert.equal(days.reduce((n, d) => n + d.answers, 0), 6, "nothing from before the 30 days");
  assert.deepEqual(summary(attempts, 30, now), { answers: 6, right: 4, reviews: 4, recalled: 3 }, "a twice, b and d answered again, each after an earlier answer (d's out of the 30 days)");
});
