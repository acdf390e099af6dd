/* Spaced repetition over ts-fsrs (passed in: main.js loads it when there is something to
   plan). A question's card is its attempts replayed, oldest first: wrong is Again, right is
   Good; a flashcard's, its grades as given (1 Again to 4 Easy); no short-term steps, so the
   schedule counts in days. */

export function makeScheduler(lib) {
  const engine = lib.fsrs(lib.generatorParameters({ enable_short_term: false, enable_fuzz: false }));

  function rating(correct) {
    return correct ? lib.Rating.Good : lib.Rating.Again;
  }

  /* The rating of an attempt at a question ({correct}) or a review of a flashcard ({grade}). */
  function rated(attempt) {
    return attempt.grade || rating(attempt.correct);
  }

  /* The card after these attempts ({correct, time}) or reviews ({grade, time}), or null. */
  function cardAfter(attempts) {
    if (!attempts.length) return null;
    const ordered = [...attempts].sort((a, b) => a.time - b.time);
    let card = lib.createEmptyCard(new Date(ordered[0].time));
    for (const attempt of ordered) card = engine.next(card, new Date(attempt.time), rated(attempt)).card;
    return card;
  }

  /* {id: {due, count}}; a card whose due date is no date is left out. */
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
