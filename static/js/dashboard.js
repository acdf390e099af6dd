/* The home page's dashboard: continue where you left off, the questions and flashcards due today, today's answers
   against the daily goal (set here), and the streak of days the goal was reached, each day
   against the goal it had (a goal changed today never rewrites the days before). */

import { dayOf, goalOn } from "./storage.js";
import { fill } from "./question.js";

/* "YYYY-MM-DD" of a time, in the reader's own time zone (storage's days). */
export const dayKey = (time) => dayOf(Number(time));

/* Answers given on each day: {dayKey: count}. */
export function answersByDay(attempts) {
  const days = Object.create(null);
  for (const list of Object.values(attempts)) for (const { time } of list) days[dayKey(time)] = (days[dayKey(time)] || 0) + 1;
  return days;
}

/* Days in a row, back from today, on which at least the goal answers were given (goal: a
   number, or the goal of a day key); today counts once reached, and until then the streak
   up to yesterday stands. */
export function streak(days, goal, now = Date.now()) {
  const goalOf = typeof goal === "function" ? goal : () => goal;
  const reached = (day) => (days[dayKey(day)] || 0) >= goalOf(dayKey(day));
  const day = new Date(now);
  day.setHours(12, 0, 0, 0);
  if (!reached(day)) day.setDate(day.getDate() - 1);
  let count = 0;
  while (reached(day)) {
    count += 1;
    day.setDate(day.getDate() - 1);
  }
  return count;
}

/* The latest practice place that is not at its end, with a card to link it from. */
function lastPlace(places) {
  return Object.entries(places)
    .filter(([topic]) => document.querySelector(`[data-topic="${CSS.escape(topic)}"][data-practice-page]`))
    .sort((a, b) => b[1].time - a[1].time)[0];
}

function show(body, record, format) {
  const day = dayKey(Date.now()); // one reading: the goal and the count are of the same day at midnight
  const goal = goalOn(record, day);
  const days = answersByDay(record.attempts);
  const today = days[day] || 0;
  body.querySelector("[data-today]").textContent = fill(body.dataset.todayText, { done: format(today), goal: format(goal) });
  body.querySelector("[data-streak]").textContent = format(streak(days, (day) => goalOn(record, day)));
  const progress = body.querySelector("[data-goal-progress]");
  progress.max = goal;
  progress.value = Math.min(today, goal);
  const input = body.querySelector("[data-goal]");
  if (document.activeElement !== input) input.value = goal;
  const last = lastPlace(record.places);
  const line = body.querySelector("[data-continue]");
  line.hidden = !last;
  if (!last) return;
  const [topic, place] = last;
  const card = document.querySelector(`[data-topic="${CSS.escape(topic)}"]`);
  const link = line.querySelector("[data-continue-link]");
  link.href = card.dataset.practicePage;
  link.textContent = fill(body.dataset.continueText, {
    topic: card.querySelector("h3").textContent.trim(), number: format(place.position + 1), total: format(place.order.length),
  });
}

export function start(context) {
  const body = document.querySelector("[data-dashboard-body]");
  const input = body.querySelector("[data-goal]");
  input.addEventListener("change", () => {
    const valid = input.checkValidity(); // a whole number from 1 to 500 (home.html)
    input.setAttribute("aria-invalid", String(!valid));
    if (!valid) return input.reportValidity(); // the browser says why, in its words; the goal stays as it was
    context.store.setGoal(Number(input.value));
    context.refresh();
  });
  context.onRefresh.push((record) => show(body, record, context.format));
  context.onDue.push((count) => {
    body.querySelector("[data-due-count]").textContent = context.format(count);
    body.querySelector("[data-due-link]").hidden = count === 0; // nothing to review: no link that says so
  });
  context.onDueCards.push((count) => { body.querySelector("[data-due-cards]").textContent = context.format(count); });
  context.refresh();
  body.hidden = false;
}
