// Unit tests of the study modules (static/js/) under node's built-in test runner:
// node --test tests/js/   (tests/test_study.py runs it as part of the suite)
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fsrsLib from "../../static/vendor/ts-fsrs-5.4.2/index.mjs";
import { makeScheduler, dueIds } from "../../static/js/schedule.js";
import { Store, parseRecord, stateOf, FORMAT, VERSION, emptyRecord } from "../../static/js/storage.js";
import { shuffled } from "../../static/js/practice.js";

const DAY = 24 * 3600 * 1000;
const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

class FakeStorage {
  constructor(entries = {}) { this.map = new Map(Object.entries(entries)); this.quota = Infinity; }
  getItem(key) { return this.map.has(key) ? this.map.get(key) : null; }
  setItem(key, value) {
    const size = [...this.map.entries()].reduce((n, [k, v]) => n + (k === key ? 0 : v.length), 0) + String(value).length;
    if (size > this.quota) throw new Error("QuotaExceededError");
    this.map.set(key, String(value));
  }
  removeItem(key) { this.map.delete(key); }
}

class DisabledStorage {
  getItem() { throw new Error("SecurityError"); }
  setItem() { throw new Error("SecurityError"); }
  removeItem() { throw new Error("SecurityError"); }
}

test("the scheduler maps right to Good and wrong to Again", () => {
  const scheduler = makeScheduler(fsrsLib);
  assert.equal(scheduler.rating(true), fsrsLib.Rating.Good);
  assert.equal(scheduler.rating(false), fsrsLib.Rating.Again);
});

test("a replayed card is the card ts-fsrs gives for the same reviews", () => {
  const scheduler = makeScheduler(fsrsLib);
  const attempts = [
    { correct: false, time: T0 },
    { correct: true, time: T0 + DAY },
    { correct: true, time: T0 + 4 * DAY },
  ];
  const engine = fsrsLib.fsrs(fsrsLib.generatorParameters({ enable_short_term: false, enable_fuzz: false }));
  let card = fsrsLib.createEmptyCard(new Date(T0));
  card = engine.next(card, new Date(T0), fsrsLib.Rating.Again).card;
  card = engine.next(card, new Date(T0 + DAY), fsrsLib.Rating.Good).card;
  card = engine.next(card, new Date(T0 + 4 * DAY), fsrsLib.Rating.Good).card;
  const replayed = scheduler.cardAfter([...attempts].reverse()); // order given does not matter
  assert.equal(replayed.due.getTime(), card.due.getTime());
  assert.equal(replayed.stability, card.stability);
  assert.equal(replayed.reps, 3);
  assert.equal(replayed.lapses, card.lapses);
});

test("a wrong answer is due the next day, a right one later, and intervals grow", () => {
  const scheduler = makeScheduler(fsrsLib);
  const wrong = scheduler.plan({ q: [{ correct: false, time: T0 }] }).q;
  assert.equal(wrong.due - T0, DAY);
  assert.equal(wrong.count, 1);
  const right = scheduler.plan({ q: [{ correct: true, time: T0 }] }).q;
  assert.ok(right.due - T0 >= 2 * DAY, "a first right answer waits some days");
  const twice = scheduler.plan({ q: [{ correct: true, time: T0 }, { correct: true, time: right.due }] }).q;
  assert.ok(twice.due - right.due > right.due - T0, "the next interval is longer");
});

test("due ids are those due by the end of the day, longest overdue first", () => {
  const now = new Date(2026, 0, 10, 12).getTime();
  const schedule = { a: { due: now + 3600e3 }, b: { due: now - 2 * DAY }, c: { due: now + 2 * DAY }, d: { due: now - DAY } };
  assert.deepEqual(dueIds(schedule, now), ["b", "d", "a"]);
});

test("attempts are kept per question under the site's base path", () => {
  const storage = new FakeStorage();
  const one = new Store("/one/", storage);
  one.addAttempt("q-1", 2, false, T0);
  const two = new Store("/two/", storage);
  assert.deepEqual(two.attempts("q-1"), []);
  const again = new Store("/one/", storage);
  assert.deepEqual(again.attempts("q-1"), [{ choice: 2, correct: false, time: T0 }]);
  assert.equal(stateOf(again.record(), "q-1"), "wrong");
  assert.equal(stateOf(again.record(), "other"), "new");
});

test("disabled storage: the store works in memory and says so", () => {
  const store = new Store("/s/", new DisabledStorage());
  assert.equal(store.problem, "unavailable");
  store.addAttempt("q", 0, true, T0);
  assert.equal(store.attempts("q").length, 1);
});

test("garbage is set aside, never lost, and a new record is started", () => {
  const storage = new FakeStorage({ "studysite:/s/": "{not json" });
  const store = new Store("/s/", storage);
  assert.equal(store.problem, "corrupt");
  const aside = [...storage.map.keys()].filter((k) => k.startsWith("studysite:/s/:unreadable:"));
  assert.equal(aside.length, 1);
  assert.equal(storage.getItem(aside[0]), "{not json");
  store.addAttempt("q", 1, true, T0);
  assert.equal(new Store("/s/", storage).attempts("q").length, 1);
});

test("a record of a newer version is left untouched", () => {
  const newer = JSON.stringify({ format: FORMAT, version: VERSION + 1, attempts: {} });
  const storage = new FakeStorage({ "studysite:/s/": newer });
  const store = new Store("/s/", storage);
  assert.equal(store.problem, "newer");
  store.addAttempt("q", 1, true, T0);
  assert.equal(storage.getItem("studysite:/s/"), newer);
});

test("a full storage keeps the page working and is reported", () => {
  const storage = new FakeStorage();
  const store = new Store("/s/", storage);
  let told = "";
  store.onProblem = (problem) => { told = problem; };
  storage.quota = 10;
  store.addAttempt("q", 1, true, T0);
  assert.equal(told, "full");
  assert.equal(store.attempts("q").length, 1);
});

test("a storage already full when the page opens still shows the stored progress", () => {
  const storage = new FakeStorage();
  new Store("/s/", storage).addAttempt("q", 2, false, T0);
  storage.quota = 0; // nothing more can be written
  const store = new Store("/s/", storage);
  assert.equal(store.problem, "full");
  assert.equal(store.attempts("q").length, 1);
  store.addAttempt("r", 0, true, T0 + 1);
  assert.deepEqual(Object.keys(store.exportData().attempts).sort(), ["q", "r"]);
  assert.equal(JSON.parse(storage.getItem("studysite:/s/")).attempts.q.length, 1); // left as it was
});

test("older versions are migrated step by step", () => {
  const old = JSON.stringify({ format: FORMAT, version: 1, answers: { q: [[1, true, T0]] } });
  const migrations = { 1: (data) => ({ format: FORMAT, version: 2, attempts: { q: data.answers.q.map(([choice, correct, time]) => ({ choice, correct, time })) } }) };
  const { record } = parseRecord(old, migrations, 2);
  assert.deepEqual(record.attempts.q, [{ choice: 1, correct: true, time: T0 }]);
  assert.equal(parseRecord(old, {}, 2).error, "foreign", "a version with no way forward is refused");
  assert.equal(parseRecord(JSON.stringify({ format: FORMAT, version: 0 })).error, "foreign");
});

test("hostile records are cleaned: bad ids, bad attempts and prototype keys are dropped", () => {
  const text = '{"format":"studysite-progress","version":1,"attempts":{"__proto__":[{"choice":0,"correct":true,"time":1}],' +
    '"<img src=x>":[{"choice":0,"correct":true,"time":1}],"ok":[{"choice":"x","correct":true,"time":1},{"choice":1,"correct":false,"time":5}],' +
    '"constructor":[{"choice":0,"correct":true,"time":2}]},"settings":{"shuffle":"yes"}}';
  const { record } = parseRecord(text);
  assert.deepEqual(Object.keys(record.attempts).sort(), ["constructor", "ok"]);
  assert.deepEqual(record.attempts.ok, [{ choice: 1, correct: false, time: 5 }]);
  assert.equal(record.settings.shuffle, false);
  assert.equal({}.polluted, undefined);
  assert.equal(stateOf(emptyRecord(), "constructor"), "new");
});

test("import merges, and refuses wrong, foreign and empty files without a change", () => {
  const storage = new FakeStorage();
  const store = new Store("/s/", storage);
  store.addAttempt("a", 0, true, T0);
  const before = storage.getItem("studysite:/s/");
  const known = new Set(["a", "b"]);
  assert.equal(store.importText("hello", known), "corrupt");
  assert.equal(store.importText('{"format":"anki","version":1}', known), "foreign");
  assert.equal(store.importText(JSON.stringify({ format: FORMAT, version: 1, attempts: { zz: [{ choice: 0, correct: true, time: 1 }] } }), known), "foreign");
  assert.equal(store.importText(JSON.stringify({ format: FORMAT, version: 9, attempts: {} }), known), "newer");
  assert.equal(store.importText(JSON.stringify({ format: FORMAT, version: 1, attempts: {} }), known), "empty");
  assert.equal(storage.getItem("studysite:/s/"), before);
  const file = JSON.stringify({ format: FORMAT, version: 1, attempts: { a: [{ choice: 0, correct: true, time: T0 }, { choice: 1, correct: false, time: T0 + 1 }], b: [{ choice: 2, correct: true, time: T0 }] } });
  assert.equal(store.importText(file, known), "");
  assert.equal(store.attempts("a").length, 2, "the attempt already kept is not doubled");
  assert.equal(store.attempts("b").length, 1);
});

test("export, reset and import give the progress back", () => {
  const store = new Store("/s/", new FakeStorage());
  store.addAttempt("a", 0, true, T0);
  store.addAttempt("b", 1, false, T0 + 5);
  const exported = JSON.stringify(store.exportData());
  store.reset();
  assert.deepEqual(store.attempts("a"), []);
  assert.equal(store.importText(exported, new Set(["a", "b"])), "");
  assert.equal(stateOf(store.record(), "b"), "wrong");
});

test("shuffling keeps every question once", () => {
  let seed = 1;
  const random = () => { seed = (seed * 16807) % 2147483647; return seed / 2147483647; };
  const ids = ["a", "b", "c", "d", "e"];
  const order = shuffled(ids, random);
  assert.deepEqual([...order].sort(), ids);
  assert.notDeepEqual(order, ids);
});
