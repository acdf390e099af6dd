/* Export and import of the progress (the review page's): the file is the record plus where it
   comes from; an import is merged, never replacing what is kept (a setting the file states
   is taken only where this browser's is still the default), and refused whole (nothing
   changed) when it is not JSON, another site's, newer, or holds no answers. */

import { parseRecord, emptyRecord, MAX_ATTEMPTS } from "./storage.js";

export function exportData(store, now = new Date()) {
  return { ...store.record(), site: store.key.slice("studysite:".length), exported: now.toISOString() };
}

/* Merge an export file's text into the store; "" or the reason it was refused. */
export function importText(store, text, knownIds = null) {
  const parsed = parseRecord(text);
  if (parsed.error) return parsed.error;
  const incoming = parsed.record;
  const given = Object.keys(incoming.attempts).length;
  if (knownIds) {
    for (const id of Object.keys(incoming.attempts)) if (!knownIds.has(id)) delete incoming.attempts[id];
    for (const [topic, place] of Object.entries(incoming.places)) if (!place.order.every((id) => knownIds.has(id))) delete incoming.places[topic];
  }
  if (!Object.keys(incoming.attempts).length) return given ? "foreign" : "empty";
  store.update((record) => mergeInto(record, incoming, parsed.settings));
  return store.problem && store.problem !== "corrupt" ? "unsaved" : "";
}

export function mergeInto(record, incoming, settings = {}) {
  for (const [id, list] of Object.entries(incoming.attempts)) {
    const mine = record.attempts[id] || [];
    const seen = new Set(mine.map((a) => a.time + ":" + a.choice));
    const merged = mine.concat(list.filter((a) => !seen.has(a.time + ":" + a.choice)));
    record.attempts[id] = merged.sort((a, b) => a.time - b.time).slice(-MAX_ATTEMPTS);
    delete record.schedule[id]; // planned again (main.js)
  }
  const defaults = emptyRecord().settings;
  for (const [name, value] of Object.entries(settings)) if (record.settings[name] === defaults[name]) record.settings[name] = value;
  record.places = Object.assign(Object.create(null), incoming.places, record.places);
}
