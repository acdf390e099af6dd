/* The reader's progress, kept in localStorage: the one place that reads and writes it.

   One record per site, under a key made of the site's base path, so two Studysite sites on
   one origin never mix. The record is versioned, validated entry by entry when read, and
   migrated from older versions (version 2 added the daily goal and the place each practice
   page was left at). Every time is whole milliseconds between 1970 and the year 9999 (a
   time that does not round-trip through Date is refused like any bad field). When storage is disabled, full, unreadable or written by a
   newer version of the site, the store keeps working in memory and says why in `problem`;
   it never overwrites what it could not read. */

export const FORMAT = "studysite-progress";
export const VERSION = 2;
const ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_ATTEMPTS = 200; // per question: older ones are dropped first
const MAX_TIME = Date.UTC(9999, 11, 31);
export const DEFAULT_GOAL = 10; // answers a day

/* Older versions -> the next one; each step takes a record of version n and returns n + 1. */
export const MIGRATIONS = {
  1: (data) => ({ ...data, version: 2, places: {} }), // sanitise gives the goal its default
};

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

/* Where a practice page was left: its order of questions, how many are done, the missed ones. */
function validPlace(place) {
  if (!isObject(place) || !Array.isArray(place.order) || !Array.isArray(place.missed) || !validTime(place.time)) return false;
  const order = new Set(place.order);
  return order.size === place.order.length && place.order.every((id) => typeof id === "string" && ID.test(id)) &&
    Number.isInteger(place.position) && place.position >= 0 && place.position <= place.order.length &&
    place.missed.every((id) => order.has(id));
}

/* A clean record from untrusted data of the current version; bad entries are left out. */
export function sanitise(data) {
  const record = emptyRecord();
  const ids = (obj) => (isObject(obj) ? Object.keys(obj).filter((id) => ID.test(id)) : []);
  for (const id of ids(data.attempts)) {
    const list = Array.isArray(data.attempts[id]) ? data.attempts[id].filter(validAttempt) : [];
    if (list.length) record.attempts[id] = list.map(({ choice, correct, time }) => ({ choice, correct, time })).sort((a, b) => a.time - b.time).slice(-MAX_ATTEMPTS);
  }
  const settings = isObject(data.settings) ? data.settings : {};
  if (typeof settings.shuffle === "boolean") record.settings.shuffle = settings.shuffle;
  if (Number.isInteger(settings.goal) && settings.goal > 0 && settings.goal <= 500) record.settings.goal = settings.goal;
  for (const id of ids(data.schedule)) {
    const { due, count } = data.schedule[id] || {};
    if (validEntry({ due, count })) record.schedule[id] = { due, count };
  }
  for (const id of ids(data.places)) {
    const { order, position, missed, time } = data.places[id];
    if (validPlace({ order, position, missed, time })) record.places[id] = { order: [...order], position, missed: [...missed], time };
  }
  return record;
}

/* Parse a stored or imported text: {record} or {error: "corrupt" | "foreign" | "newer"}. */
export function parseRecord(text, migrations = MIGRATIONS, current = VERSION) {
  let data;
  try { data = JSON.parse(text); } catch (error) { return { error: "corrupt" }; }
  if (!isObject(data)) return { error: "corrupt" };
  if (data.format !== FORMAT || !Number.isInteger(data.version) || data.version < 1) return { error: "foreign" };
  if (data.version > current) return { error: "newer" };
  while (data.version < current) {
    const step = migrations[data.version];
    if (!step) return { error: "foreign" };
    data = step(data);
  }
  return { record: sanitise(data) };
}

function canRead(storage) {
  try {
    storage.getItem("studysite-probe");
    return true;
  } catch (error) {
    return false;
  }
}

function canWrite(storage) {
  try {
    const key = "studysite-probe";
    storage.setItem(key, "1");
    storage.removeItem(key);
    return true;
  } catch (error) {
    return false;
  }
}

function defaultStorage() {
  try { return window.localStorage; } catch (error) { return null; }
}

export class Store {
  /* root: the site's base path ("/repo/"); storage: a Web Storage object, or null. */
  constructor(root, storage = defaultStorage()) {
    this.key = "studysite:" + root;
    /* A full storage can still be read: the stored progress shows, and new answers are
       kept in memory on top of it. */
    this.storage = storage && canRead(storage) ? storage : null;
    this.writable = Boolean(this.storage) && canWrite(this.storage);
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

  /* An unreadable record is copied aside (never lost) and a new one started; a newer
     one is left alone and this page works in memory. */
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
      this.writable = false; // from now on this page keeps its answers in memory
      if (this.onProblem) this.onProblem(this.problem);
    }
  }

  /* Whether the stored record is read and written anew each time (other tabs' answers kept). */
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

  /* Only valid entries are kept: a due date is never null. */
  setSchedule(entries) {
    const valid = Object.entries(entries).filter(([id, entry]) => ID.test(id) && validEntry(entry));
    if (valid.length) this.update((record) => { for (const [id, { due, count }] of valid) record.schedule[id] = { due, count }; });
  }

  /* The place a practice page (by its topic) was left at, or null to forget it. */
  setPlace(topic, place) {
    this.update((record) => {
      if (place && validPlace(place)) record.places[topic] = place;
      else delete record.places[topic];
    });
  }

  /* The export file's data: the record plus where it comes from. */
  exportData(now = new Date()) {
    return { ...this.record(), site: this.key.slice("studysite:".length), exported: now.toISOString() };
  }

  /* Merge an export file's text; returns "" or the reason it was refused. Nothing changes on refusal. */
  importText(text, knownIds = null) {
    const parsed = parseRecord(text);
    if (parsed.error) return parsed.error;
    const incoming = parsed.record;
    const given = Object.keys(incoming.attempts).length;
    if (knownIds) {
      for (const id of Object.keys(incoming.attempts)) if (!knownIds.has(id)) delete incoming.attempts[id];
      if (!Object.keys(incoming.attempts).length) return given ? "foreign" : "empty";
    }
    if (!Object.keys(incoming.attempts).length) return "empty";
    this.update((record) => mergeInto(record, incoming));
    return this.problem && this.problem !== "corrupt" ? "unsaved" : "";
  }

  reset() { this.update((record) => Object.assign(record, emptyRecord())); }
}

/* Attempts are merged, not replaced: nothing already kept is lost. */
export function mergeInto(record, incoming) {
  for (const [id, list] of Object.entries(incoming.attempts)) {
    const mine = record.attempts[id] || [];
    const seen = new Set(mine.map((a) => a.time + ":" + a.choice));
    const merged = mine.concat(list.filter((a) => !seen.has(a.time + ":" + a.choice)));
    record.attempts[id] = merged.sort((a, b) => a.time - b.time).slice(-MAX_ATTEMPTS);
    delete record.schedule[id];
  }
  record.settings = { ...record.settings, ...incoming.settings };
  record.places = Object.assign(Object.create(null), incoming.places, record.places);
}

/* The ids whose stored schedule does not follow their attempts (never scheduled, or
   attempts added since, by an import or an older page). */
export function unscheduled(record) {
  return Object.keys(record.attempts).filter((id) => (record.schedule[id] || {}).count !== record.attempts[id].length);
}

/* Ids due by the end of the reader's day whose schedule follows their attempts, the longest overdue first. */
export function dueIds(record, now = Date.now()) {
  const end = endOfDay(now);
  return Object.entries(record.schedule)
    .filter(([id, entry]) => entry.due <= end && record.attempts[id] && entry.count === record.attempts[id].length)
    .sort((a, b) => a[1].due - b[1].due).map(([id]) => id);
}

/* A question's state for lists: "new", "right", "wrong" or "due". */
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
