// Unit tests of the study modules (static/js/) under node's built-in test runner:
// node --test tests/js/   (tests/test_study.py runs it as part of the suite)
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fsrsLib from "../../static/vendor/ts-fsrs-5.4.2/index.mjs";
import { makeScheduler } from "../../static/js/schedule.js";
import { dueByDay } from "../../static/js/review.js";
import { Store, parseRecord, stateOf, dueIds, unscheduled, FORMAT, VERSION, emptyRecord } from "../../static/js/storage.js";
import { shuffled } from "../../static/js/practice.js";
import { importText, exportData } from "../../static/js/keeping.js";

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
  const schedule = { a: { due: now + 3600e3, count: 1 }, b: { due: now - 2 * DAY, count: 1 }, c: { due: now + 2 * DAY, count: 1 }, d: { due: now - DAY, count: 1 }, e: { due: now - DAY, count: 1 } };
  const attempts = Object.fromEntries(["a", "b", "c", "d"].map((id) => [id, [{ choice: 0, correct: true, time: 1 }]]));
  attempts.e = [{ choice: 0, correct: true, time: 1 }, { choice: 0, correct: false, time: 2 }]; // answered since it was planned
  assert.deepEqual(dueIds({ schedule, attempts }, now), ["b", "d", "a"]);
});

test("attempts are kept per question under the site's base path", () => {
  const storage = new FakeStorage();
  const one = new Store("/one/", storage);
  one.addAttempt("q-1", { choice: 2, correct: false }, T0);
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
  store.addAttempt("q", { choice: 0, correct: true }, T0);
  assert.equal(store.attempts("q").length, 1);
});

test("garbage is set aside, never lost, and a new record is started", () => {
  const storage = new FakeStorage({ "studysite:/s/": "{not json" });
  const store = new Store("/s/", storage);
  assert.equal(store.problem, "corrupt");
  const aside = [...storage.map.keys()].filter((k) => k.startsWith("studysite:/s/:unreadable:"));
  assert.equal(aside.length, 1);
  assert.equal(storage.getItem(aside[0]), "{not json");
  store.addAttempt("q", { choice: 1, correct: true }, T0);
  assert.equal(new Store("/s/", storage).attempts("q").length, 1);
});

test("a record of a newer version is left untouched", () => {
  const newer = JSON.stringify({ format: FORMAT, version: VERSION + 1, attempts: {} });
  const storage = new FakeStorage({ "studysite:/s/": newer });
  const store = new Store("/s/", storage);
  assert.equal(store.problem, "newer");
  store.addAttempt("q", { choice: 1, correct: true }, T0);
  assert.equal(storage.getItem("studysite:/s/"), newer);
});

test("a full storage keeps the page working and is reported", () => {
  const storage = new FakeStorage();
  const store = new Store("/s/", storage);
  let told = "";
  store.onProblem = (problem) => { told = problem; };
  storage.quota = 10;
  store.addAttempt("q", { choice: 1, correct: true }, T0);
  assert.equal(told, "full");
  assert.equal(store.attempts("q").length, 1);
});

test("a storage already full when the page opens still shows the stored progress", () => {
  const storage = new FakeStorage();
  new Store("/s/", storage).addAttempt("q", { choice: 2, correct: false }, T0);
  storage.quota = 0; // nothing more can be written
  const store = new Store("/s/", storage);
  assert.equal(store.problem, "full");
  assert.equal(store.attempts("q").length, 1);
  store.addAttempt("r", { choice: 0, correct: true }, T0 + 1);
  assert.deepEqual(Object.keys(exportData(store).attempts).sort(), ["q", "r"]);
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
  store.addAttempt("a", { choice: 0, correct: true }, T0);
  const before = storage.getItem("studysite:/s/");
  const known = new Set(["a", "b"]);
  assert.equal(importText(store, "hello", known), "corrupt");
  assert.equal(importText(store, '{"format":"anki","version":1}', known), "foreign");
  assert.equal(importText(store, JSON.stringify({ format: FORMAT, version: 1, attempts: { zz: [{ choice: 0, correct: true, time: 1 }] } }), known), "foreign");
  assert.equal(importText(store, JSON.stringify({ format: FORMAT, version: 9, attempts: {} }), known), "newer");
  assert.equal(importText(store, JSON.stringify({ format: FORMAT, version: 1, attempts: {} }), known), "empty");
  assert.equal(storage.getItem("studysite:/s/"), before);
  const file = JSON.stringify({ format: FORMAT, version: 1, attempts: { a: [{ choice: 0, correct: true, time: T0 }, { choice: 1, correct: false, time: T0 + 1 }], b: [{ choice: 2, correct: true, time: T0 }] } });
  assert.equal(importText(store, file, known), "");
  assert.equal(store.attempts("a").length, 2, "the attempt already kept is not doubled");
  assert.equal(store.attempts("b").length, 1);
});

test("export, reset and import give the progress back", () => {
  const store = new Store("/s/", new FakeStorage());
  store.addAttempt("a", { choice: 0, correct: true }, T0);
  store.addAttempt("b", { choice: 1, correct: false }, T0 + 5);
  const exported = JSON.stringify(exportData(store));
  store.reset();
  assert.deepEqual(store.attempts("a"), []);
  assert.equal(importText(store, exported, new Set(["a", "b"])), "");
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

// -- the daily study: version 2, times in range, schedules everywhere, places, streaks ------

const KEY = "studysite:/s/";
const file = (attempts, version = VERSION) => JSON.stringify({ format: FORMAT, version, attempts });

test("import refuses out-of-range times as it refuses other bad fields", () => {
  const storage = new FakeStorage();
  const store = new Store("/s/", storage);
  store.addAttempt("a", { choice: 0, correct: true }, T0);
  const before = storage.getItem(KEY);
  const known = new Set(["a", "b"]);
  for (const time of [1e300, -5, 0, 1.5, 8.64e15, Date.UTC(10000, 0, 1), "2026-01-05", null]) {
    assert.equal(importText(store, file({ b: [{ choice: 0, correct: true, time }] }), known), "empty", `time ${time}`);
    assert.equal(storage.getItem(KEY), before, `time ${time} changed nothing`);
  }
  const text = '{"format":"studysite-progress","version":2,"attempts":{"b":[{"choice":0,"correct":true,"time":1e400}]}}'; // Infinity once parsed
  assert.equal(importText(store, text, known), "empty");
  assert.equal(importText(store, file({ b: [{ choice: 0, correct: true, time: T0 }, { choice: 1, correct: false, time: 1e300 }] }), known), "");
  assert.deepEqual(store.attempts("b"), [{ choice: 0, correct: true, time: T0 }], "only the attempt in range is kept");
});

test("a due date is never stored as null", () => {
  const storage = new FakeStorage();
  const store = new Store("/s/", storage);
  const scheduler = makeScheduler(fsrsLib);
  const late = Date.UTC(9999, 11, 30); // in range, but its next review is past the last date there is
  store.setSchedule(scheduler.plan({ q: [{ choice: 0, correct: true, time: late }], r: [{ correct: false, time: T0 }] }));
  store.setSchedule({ s: { due: NaN, count: 1 }, t: { due: null, count: 1 }, u: { due: T0, count: 0 } });
  const kept = JSON.parse(storage.getItem(KEY)).schedule;
  assert.deepEqual(Object.keys(kept), ["r"]);
  assert.ok(Object.values(kept).every((entry) => Number.isInteger(entry.due)));
  const imported = parseRecord(JSON.stringify({ format: FORMAT, version: 2, attempts: {}, schedule: { q: { due: null, count: 1 }, r: { due: 1e300, count: 1 } } }));
  assert.deepEqual(Object.keys(imported.record.schedule), []);
});

test("a version 1 record is migrated to the current version with everything it held", () => {
  const old = JSON.stringify({ format: FORMAT, version: 1, attempts: { q: [{ choice: 1, correct: false, time: T0 }] }, settings: { shuffle: true }, schedule: { q: { due: T0 + DAY, count: 1 } } });
  const storage = new FakeStorage({ [KEY]: old });
  const store = new Store("/s/", storage);
  assert.equal(store.problem, "");
  const record = store.record();
  assert.equal(record.version, VERSION);
  assert.deepEqual(record.attempts.q, [{ choice: 1, correct: false, time: T0 }]);
  assert.deepEqual(record.schedule.q, { due: T0 + DAY, count: 1 });
  assert.deepEqual(record.settings, { shuffle: true, goal: 10 });
  assert.deepEqual({ ...record.places }, {});
  assert.equal(storage.getItem(KEY), old, "read, not rewritten until something changes");
  store.setSetting("goal", 20);
  const saved = JSON.parse(storage.getItem(KEY));
  assert.equal(saved.version, VERSION);
  assert.equal(saved.attempts.q.length, 1, "the progress is kept through the migration");
  assert.equal(importText(new Store("/s/", new FakeStorage()), old, new Set(["q"])), "", "an old export file imports");
});

test("a practice place is kept when it is valid, and forgotten on request", () => {
  const storage = new FakeStorage();
  const store = new Store("/s/", storage);
  store.setPlace("t", { order: ["a", "b", "c"], position: 1, missed: ["a"], time: T0 });
  assert.deepEqual(new Store("/s/", storage).record().places.t, { order: ["a", "b", "c"], position: 1, missed: ["a"], time: T0 });
  store.setPlace("u", { order: ["a", "a"], position: 1, missed: [], time: T0 }); // an id twice
  store.setPlace("v", { order: ["a"], position: 3, missed: [], time: T0 }); // past the end
  store.setPlace("w", { order: ["a"], position: 0, missed: ["z"], time: T0 }); // missed one not in it
  assert.deepEqual(Object.keys(store.record().places), ["t"]);
  store.setPlace("t", null);
  assert.deepEqual(Object.keys(store.record().places), []);
});

test("a place of any shape that is not a place is dropped, and no stored data makes reading throw", () => {
  for (const place of [5, null, "x", [], { position: 1 }, { order: null, position: 0, missed: [], time: T0 }, { order: "ab", position: 0, missed: [], time: T0 }, { order: ["a"], position: 0, missed: "a", time: T0 }]) {
    const storage = new FakeStorage({ [KEY]: JSON.stringify({ format: FORMAT, version: 2, attempts: { q: [{ choice: 0, correct: true, time: T0 }] }, places: { t: place } }) });
    const store = new Store("/s/", storage);
    assert.equal(store.problem, "", `place ${JSON.stringify(place)}`);
    assert.deepEqual(Object.keys(store.record().places), [], `place ${JSON.stringify(place)} is dropped`);
    assert.equal(store.attempts("q").length, 1, "the answers are kept");
  }
  const throwing = { 1: () => { throw new TypeError("a migration no one foresaw"); } };
  assert.equal(parseRecord(JSON.stringify({ format: FORMAT, version: 1 }), throwing, 2).error, "corrupt");
});

test("an answer dated after now is taken as now and its question planned again", () => {
  const now = Date.now();
  const ahead = now + 5 * 365 * DAY;
  const text = JSON.stringify({ format: FORMAT, version: 2, attempts: { q: [{ choice: 0, correct: true, time: ahead }], r: [{ choice: 0, correct: true, time: T0 }] },
    schedule: { q: { due: ahead + 3 * DAY, count: 1 }, r: { due: T0 + 3 * DAY, count: 1 } }, places: { t: { order: ["q"], position: 0, missed: [], time: ahead } } });
  const store = new Store("/s/", new FakeStorage({ [KEY]: text }));
  // Given a moment before reading dates the answer ahead "now": the clock can tick in between.
  store.addAttempt("q", { choice: 1, correct: false }, now - 1);
  const record = store.record();
  assert.deepEqual(record.attempts.q.map((a) => a.correct), [true, false], "the new answer is the last one");
  assert.equal(record.attempts.q[1].time, record.attempts.q[0].time, "dated as the one before it, not before it");
  assert.ok(record.attempts.q.every((a) => a.time <= Date.now()));
  assert.equal(stateOf(record, "q"), "wrong");
  assert.deepEqual(unscheduled(record), ["q"], "planned again from the answers as they now are");
  assert.deepEqual(record.schedule.r, { due: T0 + 3 * DAY, count: 1 }, "other questions keep their plan");
  assert.ok(record.places.t.time <= Date.now());
});

test("an import keeps this browser's settings, takes the file's where this browser's are the defaults, and only places of known questions", () => {
  const attempts = { a: [{ choice: 0, correct: true, time: T0 }] };
  const places = { t: { order: ["a"], position: 0, missed: [], time: T0 }, u: { order: ["gone"], position: 0, missed: [], time: T0 } };
  const set = new Store("/s/", new FakeStorage());
  set.setSetting("goal", 42);
  set.setSetting("shuffle", true);
  assert.equal(importText(set, JSON.stringify({ format: FORMAT, version: 2, attempts, places })), "");
  assert.deepEqual(set.record().settings, { shuffle: true, goal: 42 }, "a file without settings leaves them");
  const fresh = new Store("/s/", new FakeStorage());
  assert.equal(importText(fresh, JSON.stringify({ format: FORMAT, version: 2, attempts, places, settings: { goal: 25 } }), new Set(["a"])), "");
  assert.deepEqual(fresh.record().settings, { shuffle: false, goal: 25 }, "a fresh browser takes the file's goal");
  assert.deepEqual(Object.keys(fresh.record().places), ["t"], "a place of questions the site does not have is left out");
  const bad = JSON.stringify({ format: FORMAT, version: 2, attempts, places: { x: 1 } });
  assert.equal(importText(fresh, bad, new Set(["a"])), "", "a bad place does not refuse the answers");
});

test("questions whose schedule lags behind their attempts are found", () => {
  const record = emptyRecord();
  record.attempts.a = [{ choice: 0, correct: true, time: T0 }];
  record.attempts.b = [{ choice: 0, correct: true, time: T0 }, { choice: 0, correct: false, time: T0 + 1 }];
  record.attempts.c = [{ choice: 0, correct: true, time: T0 }];
  record.schedule.b = { due: T0 + DAY, count: 1 };
  record.schedule.c = { due: T0 + DAY, count: 1 };
  assert.deepEqual(unscheduled(record), ["a", "b"]);
});

test("the coming days' due counts put the overdue on today", () => {
  const now = new Date(2026, 2, 28, 23, 30).getTime(); // a late evening before a change of clocks in Europe
  const at = (day, hour) => new Date(2026, 2, day, hour).getTime();
  const schedule = { a: { due: now - 5 * DAY }, b: { due: now + 1000 }, c: { due: at(29, 23) }, d: { due: at(30, 0) }, e: { due: at(30, 23) }, f: { due: now + 30 * DAY } };
  const days = dueByDay(schedule, Object.keys(schedule), 3, now);
  assert.deepEqual(days.map((d) => d.count), [2, 1, 2]);
  assert.deepEqual(days.map((d) => new Date(d.day).getDate()), [28, 29, 30]);
});

test("the streak counts the days in a row the goal was reached", async () => {
  const { streak, answersByDay, dayKey } = await import("../../static/js/dashboard.js");
  const noon = new Date(2026, 0, 10, 12).getTime();
  const answers = (daysAgo, count) => Array.from({ length: count }, (_, i) => ({ choice: 0, correct: true, time: noon - daysAgo * DAY + i }));
  const days = answersByDay({ a: [...answers(1, 3), ...answers(2, 3), ...answers(3, 1), ...answers(4, 3)], b: answers(0, 2) });
  assert.equal(days[dayKey(noon)], 2);
  assert.equal(streak(days, 3, noon), 2, "today is not yet reached: yesterday and the day before");
  assert.equal(streak(days, 2, noon), 3, "today reached, so it counts");
  assert.equal(streak(days, 4, noon), 0);
});

test("a goal lowered today leaves the streak of the days before as it was (issue 48's case)", async () => {
  const { streak, answersByDay } = await import("../../static/js/dashboard.js");
  const { goalOn, dayOf } = await import("../../static/js/storage.js");
  const day0 = new Date(2026, 0, 10, 12).getTime();
  const store = new Store("/s/", new FakeStorage());
  for (let i = 0; i < 5; i += 1) store.addAttempt(`q${i}`, { choice: 0, correct: true }, day0 + i); // 5 of the default 10
  const record = () => store.record();
  const goalOf = (day) => goalOn(record(), day);
  assert.equal(streak(answersByDay(record().attempts), goalOf, day0 + DAY), 0);
  store.setGoal(4, day0 + DAY);
  assert.equal(goalOn(record(), dayOf(day0)), 10, "day 0 keeps the goal it had");
  assert.equal(goalOn(record(), dayOf(day0 + DAY)), 4);
  assert.equal(streak(answersByDay(record().attempts), goalOf, day0 + DAY), 0, "5 answers on day 0 did not reach its goal of 10");
  for (let i = 0; i < 4; i += 1) store.addAttempt(`r${i}`, { choice: 0, correct: true }, day0 + DAY + i);
  assert.equal(streak(answersByDay(record().attempts), goalOf, day0 + DAY), 1, "today's 4 reach today's goal");
  assert.equal(goalOn(record(), dayOf(day0 + 5 * DAY)), 4, "the last goal set holds on");
});

test("the end screen groups the next reviews by day, and review lists due then wrong, once each", async () => {
  const { reviewDays } = await import("../../static/js/practice.js");
  const { toReview } = await import("../../static/js/review.js");
  const at = (h, day = 12) => new Date(2026, 0, day, h).getTime();
  assert.deepEqual(reviewDays({ a: { due: at(9) }, b: { due: at(18) }, c: { due: at(9, 15) } }, ["a", "b", "c", "d"]), [[at(0), 2], [at(0, 15), 1]]);
  const record = emptyRecord();
  const now = at(12);
  record.attempts = { a: [{ choice: 0, correct: false, time: now - 2 * DAY }], b: [{ choice: 0, correct: false, time: now }], c: [{ choice: 0, correct: true, time: now }], z: [{ choice: 0, correct: false, time: now }] };
  record.schedule = { a: { due: now - DAY, count: 1 }, b: { due: now + DAY, count: 1 }, c: { due: now + 3 * DAY, count: 1 } };
  assert.deepEqual(toReview(record, new Set(["a", "b", "c"]), now), ["a", "b"]);
});
