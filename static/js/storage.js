/* The reader's progress in localStorage: the one place that reads and writes it. One record
   per site (keyed by its base path), versioned, validated entry by entry and migrated when
   read. Times are whole milliseconds that round-trip through Date (up to the year 9999).
   When storage is off, full, unreadable or newer, the store works in memory and says why
   in `problem`; it never overwrites what it could not read. Import and export: keeping.js. */

export const FORMAT = "studysite-progress";
export const VERSION = 2;
const ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const MAX_ATTEMPTS = 200; // per question, the oldest dropped first
const MAX_TIME = Date.UTC(9999, 11, 31);
export const DEFAULT_GOAL = 10; // answers a day

/* Version n -> n + 1; 2 added the daily goal and the places practice pages were left at. */
export const MIGRATIONS = { 1: (data) => ({ ...data, version: 2, places: {} }) };

export function emptyRecord() {
  return { format: FORMAT, version: VERSION, attempts: Object.create(null), settings: { shuffle: false, goal: DEFAULT_GOAL }, schedule: Object.create(null), places: Object.create(null) };
}

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

export function validTime(time) {
  return Number.isInteger(time) && time > 0 && time <= MAX_TIME && new Date(time).getTime() === time;
}

function validAttempt(a) {
  return isObject(a) && Number.isInteger(a.choice) && a.choice >= 0 && a.choice < 26 &&
    typeof a.correct === "boolean" && validTime(a.time);
}

export function validEntry(entry) {
  return isObject(entry) && validTime(entry.due) && Number.isInteger(entry.count) && entry.count > 0;
}

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
  if (Number.isInteger(settings.goal) && settings.goal > 0 && settings.goal <= 500) stated.goal = settings.goal;
  return stated;
}

/* A clean record from untrusted data: bad entries are left out. A time after now (a clock
   that was ahead) is taken as now, and that question planned again, so that an answer
   from the future neither stays the last one nor keeps it from review for years. */
export function sanitise(data, now = Date.now()) {
  const record = emptyRecord();
  const ids = (obj) => (isObject(obj) ? Object.keys(obj).filter((id) => ID.test(id)) : []);
  const ahead = new Set();
  for (const id of ids(data.attempts)) {
    const list = Array.isArray(data.attempts[id]) ? data.attempts[id].filter(validAttempt) : [];
    if (list.some((a) => a.time > now)) ahead.add(id);
    if (list.length) record.attempts[id] = list.map(({ choice, correct, time }) => ({ choice, correct, time: Math.min(time, now) })).sort((a, b) => a.time - b.time).slice(-MAX_ATTEMPTS);
  }
  Object.assign(record.settings, statedSettings(data.settings));
  for (const id of ids(data.schedule)) {
    const { due, count } = data.schedule[id] || {};
    if (validEntry({ due, count }) && !ahead.has(id)) record.schedule[id] = { due, count };
  }
  for (const id of ids(data.places)) {
    const { order, position, missed, time } = isObject(data.places[id]) ? data.places[id] : {};
    if (validPlace({ order, position, missed, time })) record.places[id] = { order: [...order], position, missed: [...missed], time: Math.min(time, now) };
  }
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

  addAttempt(id, choice, correct, time = Date.now()) {
    this.update((record) => {
      const list = record.attempts[id] || (record.attempts[id] = []);
      list.push({ choice, correct, time });
      if (list.length > MAX_ATTEMPTS) list.splice(0, list.length - MAX_ATTEMPTS);
    });
  }

  setting(name) { return this.record().settings[name]; }

  setSetting(name, value) { this.update((record) => { record.settings[name] = value; }); }

  /* Valid entries only: a due date is never null. */
  setSchedule(entries) {
    const valid = Object.entries(entries).filter(([id, entry]) => ID.test(id) && validEntry(entry));
    if (valid.length) this.update((record) => { for (const [id, { due, count }] of valid) record.schedule[id] = { due, count }; });
  }

  /* Where a topic's practice was left, or null to forget it. */
  setPlace(topic, place) {
    this.update((record) => {
      if (place && validPlace(place)) record.places[topic] = place;
      else delete record.places[topic];
    });
  }

  reset() { this.update((record) => Object.assign(record, emptyRecord())); }
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
