/* Export and import of the progress (the review page's): the file is the record plus where it
   comes from; an import is merged, never replacing what is kept, and refused whole (nothing
   changed) when it is not JSON, another site's, newer, or holds no answers. */

import { parseRecord, MAX_ATTEMPTS } from "./storage.js";

export function exportData(store, now = new Date()) {
  return { ...store.record(), site: store.key.slice("studysite:".length), exported: now.toISOString() };
}

/* Merge an export file's text into the store; "" or the reason it was refused. */
export function importText(store, text, knownIds = null) {
  const parsed = parseRecord(text);
  if (parsed.error) return parsed.error;
  const incoming = parsed.record;
  const given = Object.keys(incoming.attempts).length;
  if (knownIds) for (const id of Object.keys(incoming.attempts)) if (!knownIds.has(id)) delete incoming.attempts[id];
  if (!Object.keys(incoming.attempts).length) return given ? "foreign" : "empty";
  store.update((record) => mergeInto(record, incoming));
  return store.problem && store.problem !== "corrupt" ? "unsaved" : "";
}

export function mergeInto(record, incoming) {
  for (const [id, list] of Object.entries(incoming.attempts)) {
    const mine = record.attempts[id] || [];
    const seen = new Set(mine.map((a) => a.time + ":" + a.choice));
    const merged = mine.concat(list.filter((a) => !seen.has(a.time + ":" + a.choice)));
    record.attempts[id] = merged.sort((a, b) => a.time - b.time).slice(-MAX_ATTEMPTS);
    delete record.schedule[id]; // planned again (main.js)
  }
  record.settings = { ...record.settings, ...incoming.settings };
  record.places = Object.assign(Object.create(null), incoming.places, record.places);
}
