/* Export and import of the progress (the review page's): the file is the record plus where it
   comes from; an import is merged, never replacing what is kept (a setting the file states
   is taken only where this browser's is still the default, a day's goal only where this
   browser has none), and refused whole (nothing changed) when it is not JSON, another
   site's, newer, or holds no answers. */

import { parseRecord, emptyRecord, MAX_ATTEMPTS, MAX_EXAMS } from "./storage.js";

export function exportData(store, now = new Date()) {
  return { ...store.record(), site: store.key.slice("studysite:".length), exported: now.toISOString() };
}

const answers = (record) => Object.keys(record.attempts).length + Object.keys(record.cards.attempts).length;

/* Merge an export file's text into the store; "" or the reason it was refused. */
export function importText(store, text, knownIds = null) {
  const parsed = parseRecord(text);
  if (parsed.error) return parsed.error;
  const incoming = parsed.record;
  const given = answers(incoming);
  if (knownIds) {
    for (const id of Object.keys(incoming.attempts)) if (!knownIds.has(id)) delete incoming.attempts[id];
    for (const [topic, place] of Object.entries(incoming.places)) if (!place.order.every((id) => knownIds.has(id))) delete incoming.places[topic];
  }
  if (!answers(incoming)) return given ? "foreign" : "empty";
  store.update((record) => mergeInto(record, incoming, parsed.settings));
  return store.problem && store.problem !== "corrupt" ? "unsaved" : "";
}

/* The attempts of both (each once), whose plans are then made again (main.js). */
function mergeDeck(mine, theirs) {
  for (const [id, list] of Object.entries(theirs.attempts)) {
    const kept = mine.attempts[id] || [];
    const seen = new Set(kept.map((a) => JSON.stringify(a)));
    mine.attempts[id] = kept.concat(list.filter((a) => !seen.has(JSON.stringify(a)))).sort((a, b) => a.time - b.time).slice(-MAX_ATTEMPTS);
    delete mine.schedule[id];
  }
}

export function mergeInto(record, incoming, settings = {}) {
  mergeDeck(record, incoming);
  mergeDeck(record.cards, incoming.cards);
  const defaults = emptyRecord().settings;
  for (const [name, value] of Object.entries(settings)) if (record.settings[name] === defaults[name]) record.settings[name] = value;
  record.goals = Object.assign(Object.create(null), incoming.goals, record.goals);
  record.places = Object.assign(Object.create(null), incoming.places, record.places);
  const started = new Set(record.exams.map((exam) => exam.started));
  record.exams = record.exams.concat(incoming.exams.filter((exam) => !started.has(exam.started))).sort((a, b) => a.started - b.started).slice(-MAX_EXAMS);
}
