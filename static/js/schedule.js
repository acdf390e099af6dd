/* Spaced repetition over ts-fsrs (the FSRS scheduler Anki uses); no scheduling of our own.

   The attempts kept by storage.js are the truth; a question's FSRS card is made by
   replaying its attempts, oldest first, through ts-fsrs. Rating mapping: a wrong answer
   is Again, a right answer is Good (a multiple-choice answer tells right from wrong, not
   how hard it felt). Short-term learning steps are off, so the schedule counts in days:
   a wrong answer comes back the next day, a first right one a few days later.

   The ts-fsrs module is passed in (loadScheduler imports it from the page's
   data-scheduler URL), so only the pages that schedule load it. */

export async function loadScheduler(url) {
  return makeScheduler(await import(new URL(url, document.baseURI).href)); // the page's URL, not this module's
}

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

  /* {id: {due (ms), count}} for every question with attempts: what storage keeps as the schedule. */
  function plan(attemptsById) {
    const entries = {};
    for (const [id, attempts] of Object.entries(attemptsById)) {
      const card = cardAfter(attempts);
      if (card) entries[id] = { due: card.due.getTime(), count: attempts.length };
    }
    return entries;
  }

  return { rating, cardAfter, plan };
}

/* Ids due by the end of the reader's day, the longest overdue first. */
export function dueIds(schedule, now = Date.now()) {
  const end = new Date(now);
  end.setHours(23, 59, 59, 999);
  return Object.entries(schedule).filter(([, entry]) => entry.due <= end.getTime()).sort((a, b) => a[1].due - b[1].due).map(([id]) => id);
}
