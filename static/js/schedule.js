/* Spaced repetition over ts-fsrs (the FSRS scheduler Anki uses); no scheduling of our own.

   The attempts kept by storage.js are the truth; a question's FSRS card is made by
   replaying its attempts, oldest first, through ts-fsrs. Rating mapping: a wrong answer
   is Again, a right answer is Good (a multiple-choice answer tells right from wrong, not
   how hard it felt). Short-term learning steps are off, so the schedule counts in days:
   a wrong answer comes back the next day, a first right one a few days later.

   The ts-fsrs module is passed in (main.js imports it, from the URL the page's study
   strings give, only once there is something to schedule), so every answer, on any page,
   is scheduled the same way. */

import { endOfDay } from "./storage.js";

const DAY = 24 * 3600 * 1000;

export function makeScheduler(lib) {
  const engine = lib.fsrs(lib.generatorParameters({ enable_short_term: false, enable_fuzz: false }));

  function rating(correct) {
    return correct ? lib.Rating.Good : lib.Rating.Again;
  }

  /* The FSRS card after these attempts ({correct, time} with time in ms), or null if none. */
  function cardAfter(attempts) {
    if (!attempts.length) return null;
    const ordered = [...attempts].sort((a, b) => a.time - b.time);
    let card = lib.createEmptyCard(new Date(ordered[0].time));
    for (const attempt of ordered) card = engine.next(card, new Date(attempt.time), rating(attempt.correct)).card;
    return card;
  }

  /* {id: {due (ms), count}} for every question with attempts: what storage keeps as the
     schedule. A card whose due date is no date (out of range) is left out, never null. */
  function plan(attemptsById) {
    const entries = {};
    for (const [id, attempts] of Object.entries(attemptsById)) {
      const card = cardAfter(attempts);
      const due = card ? card.due.getTime() : NaN;
      if (Number.isFinite(due)) entries[id] = { due, count: attempts.length };
    }
    return entries;
  }

  return { rating, cardAfter, plan };
}

/* How many of these ids fall due on each of the coming days: [{day (ms, its last moment),
   count}], today first (with what is overdue). Days are counted from noon, so a day of 23
   or 25 hours is neither skipped nor counted twice. */
export function dueByDay(schedule, ids, days, now = Date.now()) {
  const noon = new Date(now).setHours(12, 0, 0, 0);
  const ends = Array.from({ length: days }, (_, i) => endOfDay(noon + i * DAY));
  const counts = ends.map((end) => ({ day: end, count: 0 }));
  for (const id of ids) {
    const index = ends.findIndex((end) => schedule[id] && schedule[id].due <= end);
    if (index >= 0) counts[index].count += 1;
  }
  return counts;
}
