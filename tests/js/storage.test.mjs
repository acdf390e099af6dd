// Stored progress, version 3 (static/js/storage.js, keeping.js): answers of every type,
// flashcards under keys of their own, the goal of each day, kept exams; the export files of
// versions 1 and 2 migrate with nothing lost, and a newer version is left alone.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Store, parseRecord, stateOf, unscheduled, dayOf, FORMAT, VERSION, MAX_EXAMS } from "../../static/js/storage.js";
import { importText, exportData } from "../../static/js/keeping.js";

const DAY = 24 * 3600 * 1000;
const T0 = new Date(2026, 0, 5, 9).getTime();
const KEY = "studysite:/s/";

class FakeStorage {
  constructor(entries = {}) { this.map = new Map(Object.entries(entries)); }
  getItem(key) { return this.map.has(key) ? this.map.get(key) : null; }
  setItem(key, value) { this.map.set(key, String(value)); }
  removeItem(key) { this.map.delete(key); }
}

// What the review page's Export gave before version 3 (studysite-progress-<date>.json).
const VERSION_1_EXPORT = {
  format: FORMAT, version: 1, site: "/s/", exported: "2025-11-02T10:00:00.000Z",
  attempts: { "all-reduce": [{ choice: 1, correct: false, time: T0 - 3 * DAY }, { choice: 2, correct: true, time: T0 - DAY }], "kv-cache": [{ choice: 0, correct: true, time: T0 - 2 * DAY }] },
  settings: { shuffle: true },
  schedule: { "all-reduce": { due: T0 + 2 * DAY, count: 2 }, "kv-cache": { due: T0 + DAY, count: 1 } },
};
const VERSION_2_EXPORT = {
  ...VERSION_1_EXPORT, version: 2, exported: "2026-01-04T18:00:00.000Z",
  settings: { shuffle: false, goal: 4 },
  places: { "gpu-programming": { order: ["kv-cache", "all-reduce"], position: 1, missed: [], time: T0 - DAY } },
};

test("version 1 and 2 export files migrate with every answer, plan, setting and place", () => {
  for (const file of [VERSION_1_EXPORT, VERSION_2_EXPORT]) {
    const { record, error } = parseRecord(JSON.stringify(file));
    assert.equal(error, undefined);
    assert.equal(record.version, VERSION);
    assert.deepEqual(JSON.parse(JSON.stringify(record.attempts)), file.attempts, `version ${file.version}: the answers`);
    assert.deepEqual({ ...record.schedule }, file.schedule, `version ${file.version}: the plans`);
    assert.deepEqual({ ...record.places }, file.places || {});
    assert.equal(record.settings.shuffle, file.settings.shuffle);
    assert.equal(record.settings.goal, file.settings.goal || 10);
    assert.deepEqual({ ...record.goals }, { [dayOf(T0 - 3 * DAY)]: file.settings.goal || 10 }, "the goal until now, since the first answer");
    assert.deepEqual({ ...record.cards.attempts }, {});
    assert.deepEqual(record.exams, []);
    const store = new Store("/s/", new FakeStorage());
    assert.equal(importText(store, JSON.stringify(file), new Set(["all-reduce", "kv-cache"])), "", `version ${file.version} imports`);
    assert.equal(store.attempts("all-reduce").length, 2);
  }
});

test("a stored version 2 record is read as version 3 and written so once something changes", () => {
  const old = JSON.stringify(VERSION_2_EXPORT);
  const storage = new FakeStorage({ [KEY]: old });
  const store = new Store("/s/", storage);
  assert.equal(store.problem, "");
  assert.equal(stateOf(store.record(), "all-reduce", T0), "right");
  assert.equal(storage.getItem(KEY), old, "read, not rewritten");
  store.addAttempt("kv-cache", { correct: true, given: [1, 0] }, T0);
  const saved = JSON.parse(storage.getItem(KEY));
  assert.equal(saved.version, VERSION);
  assert.equal(saved.attempts["all-reduce"].length, 2);
  assert.deepEqual(saved.places, VERSION_2_EXPORT.places);
});

test("a newer version is left untouched, stored or imported", () => {
  const newer = JSON.stringify({ format: FORMAT, version: VERSION + 1, attempts: {}, hologram: true });
  const storage = new FakeStorage({ [KEY]: newer });
  const store = new Store("/s/", storage);
  assert.equal(store.problem, "newer");
  store.addAttempt("q", { correct: true, given: "zes" }, T0);
  store.setGoal(5, T0);
  assert.equal(storage.getItem(KEY), newer);
  assert.equal(importText(new Store("/t/", new FakeStorage()), newer), "newer");
});

test("an attempt of any type is kept: a choice, or a text or small numbers given, and shown", () => {
  const storage = new FakeStorage();
  const store = new Store("/s/", storage);
  store.addAttempt("single", { correct: true, choice: 2 }, T0);
  store.addAttempt("typed", { correct: false, given: "Zes " }, T0);
  store.addAttempt("multiple", { correct: true, given: [0, 2] }, T0);
  store.addAttempt("match", { correct: false, given: [1, 0, -1] }, T0);
  store.addAttempt("peeked", { correct: false, choice: 0, shown: true }, T0);
  const saved = JSON.parse(storage.getItem(KEY)).attempts;
  assert.deepEqual(saved.typed, [{ time: T0, correct: false, given: "Zes " }]);
  assert.deepEqual(saved.match[0].given, [1, 0, -1]);
  assert.equal(saved.peeked[0].shown, true);
  assert.equal(stateOf(store.record(), "peeked"), "wrong", "an answer given after the reveal counts as wrong");
  for (const bad of [{ choice: 0 }, { correct: "yes" }, { correct: true, choice: 26 }, { correct: true, given: "x".repeat(201) }, { correct: true, given: [0, "1"] }, { correct: true, given: [30] }, { correct: true, given: {} }, { correct: false, shown: false }]) {
    store.addAttempt("bad", bad, T0);
  }
  store.addAttempt("<img>", { correct: true }, T0);
  assert.deepEqual(Object.keys(store.record().attempts).sort(), ["match", "multiple", "peeked", "single", "typed"]);
  store.addAttempt("extra", { correct: true, choice: 1, rating: 4, __proto__: { polluted: 1 } }, T0);
  assert.deepEqual(Object.keys(JSON.parse(storage.getItem(KEY)).attempts.extra[0]).sort(), ["choice", "correct", "time"], "only the attempt's own fields");
});

test("flashcards keep their own attempts and plans, apart from the questions of the same id", () => {
  const text = JSON.stringify({
    format: FORMAT, version: 3, attempts: { allele: [{ correct: true, choice: 0, time: T0 }] },
    cards: {
      attempts: { allele: [{ grade: 3, time: T0 }], "allele:definition": [{ grade: 1, time: T0 }, { grade: 5, time: T0 }], "Bad Key": [{ grade: 2, time: T0 }], dna: [{ grade: "3", time: T0 }] },
      schedule: { allele: { due: T0 + 3 * DAY, count: 1 }, dna: { due: null, count: 1 } },
    },
  });
  const { record } = parseRecord(text);
  assert.deepEqual(JSON.parse(JSON.stringify(record.cards)), {
    attempts: { allele: [{ time: T0, grade: 3 }], "allele:definition": [{ time: T0, grade: 1 }] },
    schedule: { allele: { due: T0 + 3 * DAY, count: 1 } },
  });
  assert.deepEqual(unscheduled(record), ["allele"], "the question's plan is its own");
  assert.deepEqual(unscheduled(record.cards), ["allele:definition"], "the same functions serve the cards");
  const store = new Store("/s/", new FakeStorage());
  assert.equal(importText(store, text, new Set()), "", "a file with flashcards alone is no empty file");
  assert.equal(store.record().cards.attempts.allele.length, 1);
  assert.equal(importText(store, text, new Set()), "");
  assert.equal(store.record().cards.attempts.allele.length, 1, "an import twice adds nothing twice");
});

test("a goal changed today never rewrites the goal of the days before", () => {
  const storage = new FakeStorage({ [KEY]: JSON.stringify(VERSION_2_EXPORT) });
  const store = new Store("/s/", storage);
  store.setGoal(7, T0);
  store.setGoal(2, T0 + 3600e3);
  store.setGoal(600, T0);
  store.setGoal(1.5, T0);
  const { goals, settings } = JSON.parse(storage.getItem(KEY));
  assert.deepEqual(goals, { [dayOf(T0 - 3 * DAY)]: 4, [dayOf(T0)]: 2 }, "the days before keep 4; today's last change counts");
  assert.equal(settings.goal, 2);
  const { record } = parseRecord(JSON.stringify({ format: FORMAT, version: 3, attempts: {}, goals: { "2026-01-05": 3, "2026-1-6": 3, "2026-01-07": 0, "x": 2 } }));
  assert.deepEqual({ ...record.goals }, { "2026-01-05": 3 });
  assert.equal(dayOf(new Date(2026, 0, 5, 23, 59).getTime()), "2026-01-05", "the reader's own day");
});

test("exams are kept whole or not at all, the last ones, each once through an import", () => {
  const exam = { started: T0, minutes: 30, order: ["a", "b"], answers: { a: { correct: true, choice: 1, time: T0 + 60e3 }, z: { correct: true, time: T0 } }, ended: T0 + 600e3 };
  const running = { started: T0 + DAY, minutes: 20, order: ["c"], answers: {} };
  const bad = [{ ...exam, minutes: 0 }, { ...exam, order: ["a", "a"] }, { ...exam, order: [] }, { ...exam, ended: "soon" }, { ...exam, started: -1 }, null, "exam"];
  const { record } = parseRecord(JSON.stringify({ format: FORMAT, version: 3, attempts: {}, exams: [running, ...bad, exam] }));
  assert.equal(record.exams.length, 2);
  assert.deepEqual(JSON.parse(JSON.stringify(record.exams[0])), { started: T0, minutes: 30, order: ["a", "b"], answers: { a: { time: T0 + 60e3, choice: 1, correct: true } }, ended: T0 + 600e3 }, "an answer to a question not in it is left out");
  assert.equal(record.exams[1].ended, undefined, "an exam not handed in yet, to resume");
  const many = Array.from({ length: MAX_EXAMS + 5 }, (_, i) => ({ ...running, started: T0 + i }));
  assert.equal(parseRecord(JSON.stringify({ format: FORMAT, version: 3, attempts: {}, exams: many })).record.exams[0].started, T0 + 5, "the oldest go first");
  const store = new Store("/s/", new FakeStorage());
  const file = JSON.stringify({ format: FORMAT, version: 3, attempts: { a: [{ correct: true, time: T0 }] }, exams: [exam] });
  importText(store, file);
  importText(store, file);
  assert.equal(store.record().exams.length, 1);
});

test("an export of version 3 gives everything back after a reset", () => {
  const store = new Store("/s/", new FakeStorage({ [KEY]: JSON.stringify(VERSION_2_EXPORT) }));
  store.addAttempt("typed", { correct: false, given: "sześć", shown: true }, T0);
  store.setGoal(6, T0);
  const exported = JSON.stringify(exportData(store));
  const before = JSON.parse(JSON.stringify(store.record()));
  store.reset();
  assert.equal(importText(store, exported), "");
  const after = JSON.parse(JSON.stringify(store.record()));
  for (const id of Object.keys(before.attempts)) assert.deepEqual(after.attempts[id], before.attempts[id]);
  assert.deepEqual(after.goals, before.goals);
  assert.deepEqual(after.places, before.places);
});
