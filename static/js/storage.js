/* The reader's progress in localStorage: the one place that reads and writes it. One record
   per site (keyed by its base path), versioned, validated entry by entry and migrated when
   read. Times are whole milliseconds that round-trip through Date (up to the year 9999).
   When storage is off, full, unreadable or newer, the store works in memory and says why
   in `problem`; it never overwrites what it could not read. Import and export: keeping.js.

   Version 3 holds:
   - attempts {question id: [{correct, time, choice?, given?, shown?}]}, oldest first, of any
     type: choice is the index picked (single, true-false), given another type's answer (a
     text, or small numbers: the picks, an order, the pairs); shown marks an answer given
     after the reveal was opened, which counts as wrong (correct is false);
   - schedule {question id: {due, count}}: the FSRS plan made after count attempts;
   - cards {attempts: {card: [{grade 1-4, time}]}, schedule: {card: {due, count}}}: the
     flashcards, under keys of their own (a term's id, then ":" and the side shown first), so
     a term and a question may share an id;
   - settings {shuffle, goal}, and goals {"YYYY-MM-DD": goal}: the daily goal set on that
     day, in force until the next (the days before the first take the first), so a goal
     changed today never rewrites past days;
   - places {topic: {order, position, missed, time}}: where practice was left;
   - exams [{started, minutes, order, answers: {question id: attempt}, ended?}]: the exams
     kept (the last MAX_EXAMS), oldest first. */

export const FORMAT = "studysite-progress";
export const VERSION = 3;
const ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const CARD = /^[a-z0-9]+(?:-[a-z0-9]+)*(?::[a-z]+)?$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
export const MAX_ATTEMPTS = 200; // per question or card, the oldest dropped first
export const MAX_EXAMS = 100;
const MAX_TIME = Date.UTC(9999, 11, 31);
const MAX_GIVEN = 200; // characters of a typed answer
export const DEFAULT_GOAL = 10; // answers a day

/* Version n -> n + 1. 2 added the daily goal and the places practice pages were left at;
   3 answers of every type, flashcards, the goal of each day and exams: the goal until then
   is kept as the goal since the first answer, so the days already past keep theirs. */
export const MIGRATIONS = {
  1: (data) => ({ ...data, version: 2, places: {} }),
  2: (data) => ({ ...data, version: 3, goals: firstGoal(data) }),
};

function firstGoal({ attempts, settings }) {
  const times = Object.values(isObject(attempts) ? attempts : {}).flat().map((a) => a && a.time).filter(validTime);
  return times.length ? { [dayOf(times.reduce((a, b) => Math.min(a, b)))]: statedSettings(settings).goal || DEFAULT_GOAL } : {};
}

/* "YYYY-MM-DD" of a time, in the reader's own time zone. */
export function dayOf(time) {
  return new Date(time - new Date(time).getTimezoneOffset() * 60000).toISOString().slice(0, 10);
}

const map = () => Object.create(null);

export function emptyRecord() {
  return {
    format: FORMAT, version: VERSION, attempts: map(), schedule: map(), cards: { attempts: map(), schedule: map() },
    settings: { shuffle: false, goal: DEFAULT_GOAL }, goals: map(), places: map(), exams: [],
  };
}

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

export function validTime(time) {
  return Number.isInteger(time) && time > 0 && time <= MAX_TIME && new Date(time).getTime() === time;
}

const small = (n, least = 0) => Number.isInteger(n) && n >= least && n < 26;

/* The fields an attempt (of a question) or a review (of a card) may hold, each with its check. */
const FIELDS = {
  correct: (v) => typeof v === "boolean",
  choice: (v) => small(v),
  given: (v) => (typeof v === "string" ? v.length <= MAX_GIVEN : Array.isArray(v) && v.length <= 26 && v.every((n) => small(n, -1))),
  shown: (v) => v === true,
  grade: (v) => [1, 2, 3, 4].includes(v),
};
const ATTEMPT = ["correct", "choice", "given", "shown"];
const REVIEW = ["grade"];

/* A clean copy of an entry of these fields (the first one required) at a time no later than
   now, with no other key; or null when anything is wrong. */
function entryOf(entry, [first, ...others], now = Infinity) {
  if (!isObject(entry) || !validTime(entry.time) || entry[first] === undefined) return null;
  const kept = { time: Math.min(entry.time, now) };
  for (const field of [first, ...others]) {
    const value = entry[field];
    if (value === undefined) continue;
    if (!FIELDS[field](value)) return null;
    kept[field] = Array.isArray(value) ? [...value] : value;
  }
  return kept;
}

export function validEntry(entry) {
  return isObject(entry) && validTime(entry.due) && Number.isInteger(entry.count) && entry.count > 0;
}

const validGoal = (goal) => Number.isInteger(goal) && goal > 0 && goal <= 500;

function validPlace({ order, position, missed, time } = {}) {
  if (!Array.isArray(order) || !Array.isArray(missed)) return false;
  const ids = new Set(order.filter((id) => ID.test(id)));
  return ids.size === order.length && missed.every((id) => ids.has(id)) &&
    Number.isInteger(position) && position >= 0 && position <= order.length && validTime(time);
}

/* The settings data states validly (the others keep their defaults). */
export function statedSettings(settings) {
  const stated = {};
  if (!isObject(settings)) return stated;
  if (typeof settings.shuffle === "boolean") stated.shuffle = settings.shuffle;
  if (validGoal(settings.goal)) stated.goal = settings.goal;
  return stated;
}

const keysOf = (obj, pattern = ID) => (isObject(obj) ? Object.keys(obj).filter((key) => pattern.test(key)) : []);

/* Attempts and their schedule (the questions', or the cards'), clean. An attempt after now
   (a clock that was ahead) is taken as now, and its plan made again, so that an answer from
   the future neither stays the last one nor keeps its question from review for years. */
function cleanDeck(deck, fields, pattern, now) {
  const kept = { attempts: map(), schedule: map() };
  const { attempts, schedule } = isObject(deck) ? deck : {};
  const ahead = new Set();
  for (const id of keysOf(attempts, pattern)) {
    const list = Array.isArray(attempts[id]) ? attempts[id].filter((a) => entryOf(a, fields)) : [];
    if (list.some((a) => a.time > now)) ahead.add(id);
    if (list.length) kept.attempts[id] = list.map((a) => entryOf(a, fields, now)).sort((a, b) => a.time - b.time).slice(-MAX_ATTEMPTS);
  }
  for (const id of keysOf(schedule, pattern)) {
    const { due, count } = schedule[id] || {};
    if (validEntry({ due, count }) && !ahead.has(id)) kept.schedule[id] = { due, count };
  }
  return kept;
}

/* An exam whole, or null: its questions (once each), its minutes, its answers to them. */
function cleanExam(exam, now) {
  const { started, minutes, order, answers, ended } = isObject(exam) ? exam : {};
  const ids = Array.isArray(order) ? order.filter((id) => ID.test(id)) : [];
  if (!validTime(started) || !Number.isInteger(minutes) || minutes < 1 || minutes > 600 || !ids.length || new Set(ids).size !== order.length) return null;
  if (ended !== undefined && !validTime(ended)) return null;
  const kept = { started: Math.min(started, now), minutes, order: ids, answers: map() };
  for (const id of keysOf(answers)) {
    const answer = ids.includes(id) && entryOf(answers[id], ATTEMPT, now);
    if (answer) kept.answers[id] = answer;
  }
  if (ended !== undefined) kept.ended = Math.min(Math.max(ended, kept.started), now);
  return kept;
}

/* A clean record from untrusted data: bad entries are left out. */
export function sanitise(data, now = Date.now()) {
  const record = emptyRecord();
  Object.assign(record, cleanDeck(data, ATTEMPT, ID, now));
  record.cards = cleanDeck(data.cards, REVIEW, CARD, now);
  Object.assign(record.settings, statedSettings(data.settings));
  for (const day of keysOf(data.goals, DAY)) if (validGoal(data.goals[day])) record.goals[day] = data.goals[day];
  for (const id of keysOf(data.places)) {
    const { order, position, missed, time } = isObject(data.places[id]) ? data.places[id] : {};
    if (validPlace({ order, position, missed, time })) record.places[id] = { order: [...order], position, missed: [...missed], time: Math.min(time, now) };
  }
  record.exams = (Array.isArray(data.exams) ? data.exams : []).map((exam) => cleanExam(exam, now)).filter(Boolean).sort((a, b) => a.started - b.started).slice(-MAX_EXAMS);
  return record;
}

/* Parse a stored or imported text: {record, settings (those it states)} or {error:
   "corrupt" | "foreign" | "newer"}. Data no check foresaw is "corrupt", never a fault of the page. */
export function parseRecord(text, migrations = MIGRATIONS, current = VERSION) {
  let data;
  try { data = JSON.parse(text); } catch (error) { return { error: "corrupt" }; }
  if (!isObject(data)) return { error: "corrupt" };
  if (data.format !== FORMAT || !Number.isInteger(data.version) || data.version < 1) return { error: "foreign" };
  if (data.version > current) return { error: "newer" };
  try {
    while (data.version < current) {
      const step = migrations[data.version];
      if (!step) return { error: "foreign" };
      data = step(data);
    }
    return { record: sanitise(data), settings: statedSettings(data.settings) };
  } catch (error) {
    return { error: "corrupt" };
  }
}

function works(probe) {
  try { probe(); return true; } catch (error) { return false; }
}

function defaultStorage() {
  try { return window.localStorage; } catch (error) { return null; }
}

/* The newest entry goes last and stays last: it is never dated before the one kept before it,
   which reading may just have dated "now" (a time ahead of the clock) a moment after it was given. */
function appendInOrder(list, entry) {
  const last = list[list.length - 1];
  list.push(last && last.time > entry.time ? { ...entry, time: last.time } : entry);
  keepLast(list, MAX_ATTEMPTS);
}

/* The list cut, in place, to its last `most` entries: the oldest go first. */
function keepLast(list, most) {
  if (list.length > most) list.splice(0, list.length - most);
}

export class Store {
  constructor(root, storage = defaultStorage()) {
    this.key = "studysite:" + root;
    // A full storage is still read; new answers are then kept in memory on top.
    const probe = "studysite-probe";
    this.storage = storage && works(() => storage.getItem(probe)) ? storage : null;
    this.writable = Boolean(this.storage) && works(() => { storage.setItem(probe, "1"); storage.removeItem(probe); });
    this.problem = !this.storage ? "unavailable" : this.writable ? "" : "full";
    this.onProblem = null; // called when writing starts to fail
    this.memory = this.read();
  }

  read() {
    if (!this.storage) return this.memory || emptyRecord();
    let text = null;
    try { text = this.storage.getItem(this.key); } catch (error) { this.problem = "unavailable"; }
    if (text === null) return emptyRecord();
    const parsed = parseRecord(text);
    if (parsed.record) return parsed.record;
    this.setAside(text, parsed.error);
    return emptyRecord();
  }

  /* Unreadable: copied aside, never lost; newer: left alone, this page works in memory. */
  setAside(text, error) {
    if (error === "newer") { this.problem = "newer"; this.storage = null; return; }
    this.problem = "corrupt";
    try {
      this.storage.setItem(this.key + ":unreadable:" + Date.now(), text);
      this.storage.removeItem(this.key);
    } catch (failure) {
      this.storage = null;
    }
  }

  /* Read, change, write: other tabs' answers are kept. */
  update(change) {
    const record = this.live() ? this.read() : this.memory;
    change(record);
    this.memory = record;
    if (!this.live()) return;
    try {
      this.storage.setItem(this.key, JSON.stringify(record));
    } catch (error) {
      this.problem = "full";
      this.writable = false;
      if (this.onProblem) this.onProblem(this.problem);
    }
  }

  live() { return Boolean(this.storage) && this.writable; }

  record() { return this.live() ? (this.memory = this.read()) : this.memory; }

  attempts(id) { return this.record().attempts[id] || []; }

  /* An answer ({correct, choice or given, shown}) to a question; one of another shape is not kept. */
  addAttempt(id, attempt, time = Date.now()) {
    const entry = entryOf({ ...attempt, time }, ATTEMPT);
    if (!ID.test(id) || !entry) return;
    this.update((record) => {
      appendInOrder(record.attempts[id] || (record.attempts[id] = []), entry);
    });
  }

  /* A flashcard's grade (1 Again, 2 Hard, 3 Good, 4 Easy) under its own key ("<term>:<side>"). */
  addReview(card, grade, time = Date.now()) {
    const entry = entryOf({ grade, time }, REVIEW);
    if (!CARD.test(card) || !entry) return;
    this.update((record) => {
      appendInOrder(record.cards.attempts[card] || (record.cards.attempts[card] = []), entry);
    });
  }

  setting(name) { return this.record().settings[name]; }

  setSetting(name, value) { this.update((record) => { record.settings[name] = value; }); }

  /* The daily goal from today on: the days before keep theirs (goals). A reader who never
     set one had the goal of the settings since their first answer: that day gets it first. */
  setGoal(goal, now = Date.now()) {
    if (!validGoal(goal)) return;
    const today = dayOf(now);
    this.update((record) => {
      if (!Object.keys(record.goals).some((day) => day < today)) {
        for (const [day, kept] of Object.entries(firstGoal(record))) if (!(day in record.goals)) record.goals[day] = kept;
      }
      record.settings.goal = record.goals[today] = goal;
    });
  }

  /* Valid entries only: a due date is never null. deck: "cards" for the flashcards' plans. */
  setSchedule(entries, deck = "") {
    const pattern = deck ? CARD : ID;
    const valid = Object.entries(entries).filter(([id, entry]) => pattern.test(id) && validEntry(entry));
    if (valid.length) this.update((record) => { for (const [id, { due, count }] of valid) (deck ? record[deck] : record).schedule[id] = { due, count }; });
  }

  /* Where a topic's practice was left, or null to forget it. */
  setPlace(topic, place) {
    this.update((record) => {
      if (place && validPlace(place)) record.places[topic] = place;
      else delete record.places[topic];
    });
  }

  /* A new exam ({started, minutes, order}), kept with no answer yet; false when it is not one. */
  startExam(exam) {
    const kept = cleanExam({ ...exam, answers: {} }, Infinity);
    if (!kept) return false;
    this.update((record) => {
      record.exams.push(kept);
      keepLast(record.exams, MAX_EXAMS);
    });
    return true;
  }

  /* A running exam's answer to one of its questions, or null to take it back. */
  setExamAnswer(started, id, attempt, time = Date.now()) {
    const entry = attempt && entryOf({ ...attempt, time }, ATTEMPT);
    if (attempt && !entry) return;
    this.update((record) => {
      const exam = record.exams.find((kept) => kept.started === started && kept.ended === undefined);
      if (!exam || !exam.order.includes(id)) return;
      if (entry) exam.answers[id] = entry;
      else delete exam.answers[id];
    });
  }

  /* Hand an exam in: it ends, and its answers become attempts like any other (scheduled and
     counted in their day), in the same write, so that they are counted once. */
  endExam(started, ended) {
    this.update((record) => {
      const exam = record.exams.find((kept) => kept.started === started && kept.ended === undefined);
      if (!exam || !validTime(ended)) return;
      exam.ended = Math.max(ended, started);
      for (const [id, answer] of Object.entries(exam.answers)) {
        const list = record.attempts[id] || (record.attempts[id] = []);
        list.push({ ...answer });
        list.sort((a, b) => a.time - b.time);
        keepLast(list, MAX_ATTEMPTS);
      }
    });
  }

  reset() { this.update((record) => Object.assign(record, emptyRecord())); }
}

/* The daily goal in force on a day ("YYYY-MM-DD"): the last one set on or before it (the
   days before the first take the first); with none set, the settings'. */
export function goalOn(record, day) {
  const days = Object.keys(record.goals).sort();
  if (!days.length) return record.settings.goal || DEFAULT_GOAL;
  return record.goals[days.filter((set) => set <= day).at(-1) || days[0]];
}

/* The ids whose schedule lags behind their attempts (never planned, or answered since). */
export function unscheduled(record) {
  return Object.keys(record.attempts).filter((id) => (record.schedule[id] || {}).count !== record.attempts[id].length);
}

/* Ids due by the end of the reader's day, the longest overdue first. */
export function dueIds(record, now = Date.now()) {
  return Object.keys(record.attempts).filter((id) => stateOf(record, id, now) === "due").sort((a, b) => record.schedule[a].due - record.schedule[b].due);
}

/* "new", "right", "wrong" or "due". */
export function stateOf(record, id, now = Date.now()) {
  const list = record.attempts[id];
  if (!list || !list.length) return "new";
  const planned = record.schedule[id];
  if (planned && planned.count === list.length && planned.due <= endOfDay(now)) return "due";
  return list[list.length - 1].correct ? "right" : "wrong";
}

export function endOfDay(now) {
  const end = new Date(now);
  end.setHours(23, 59, 59, 999);
  return end.getTime();
}
