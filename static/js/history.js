/* The student's history on the review page: the answers given on each of the last 30 days
   (how many, how many right), as a bar chart (chart.js) with the numbers as text, and over
   those days the accuracy (the share of answers that were right) and the retention (the
   share of reviews, answers to a question answered before, that were right: what FSRS aims
   to keep near 90%). An answer given after its reveal was opened counts as wrong here too.
   Markup: templates/review.html [data-history]. */

import { fill } from "./question.js";
import { drawBars } from "./chart.js";

export const HISTORY_DAYS = 30;
const DAY = 24 * 3600 * 1000;

/* [{day (noon, ms), answers, right}] for the `days` days up to today, oldest first.
   Days step from noon, so one of 23 or 25 hours is neither skipped nor counted twice. */
export function answersPerDay(attempts, days = HISTORY_DAYS, now = Date.now()) {
  const noon = new Date(now).setHours(12, 0, 0, 0);
  const list = Array.from({ length: days }, (_, i) => ({ day: new Date(noon - (days - 1 - i) * DAY).setHours(12, 0, 0, 0), answers: 0, right: 0 }));
  const index = new Map(list.map((entry, i) => [new Date(entry.day).toDateString(), i]));
  for (const tries of Object.values(attempts)) {
    for (const { time, correct } of tries) {
      const i = index.get(new Date(time).toDateString());
      if (i === undefined) continue;
      list[i].answers += 1;
      if (correct) list[i].right += 1;
    }
  }
  return list;
}

/* Over the `days` days up to today: {answers, right, reviews, recalled}: every answer, those
   right; the reviews (an answer to a question answered before, at any time) and those right. */
export function summary(attempts, days = HISTORY_DAYS, now = Date.now()) {
  const from = new Date(now).setHours(0, 0, 0, 0) - (days - 1) * DAY;
  const totals = { answers: 0, right: 0, reviews: 0, recalled: 0 };
  for (const tries of Object.values(attempts)) {
    const ordered = [...tries].sort((a, b) => a.time - b.time);
    ordered.forEach(({ time, correct }, i) => {
      if (time < from || time > now) return;
      totals.answers += 1;
      if (correct) totals.right += 1;
      if (i === 0) return;
      totals.reviews += 1;
      if (correct) totals.recalled += 1;
    });
  }
  return totals;
}

/* The chart and the numbers, as the record is now. */
export function showHistory(section, record, format) {
  const words = section.dataset;
  const lang = document.documentElement.lang;
  const percent = new Intl.NumberFormat(lang, { style: "percent" });
  const share = (part, whole) => (whole ? percent.format(part / whole) : "–");
  const short = new Intl.DateTimeFormat(lang, { day: "numeric", month: "short" });
  const long = new Intl.DateTimeFormat(lang, { weekday: "long", day: "numeric", month: "long" });
  const days = answersPerDay(record.attempts);
  const totals = summary(record.attempts);
  drawBars(section.querySelector("[data-history-chart]"), days.map(({ day, answers, right }, i) => ({
    count: answers,
    part: right,
    label: (days.length - 1 - i) % 7 === 0 ? short.format(day) : "", // today, and a week, two... before
    sentence: fill(words.textDay, { date: long.format(day), correct: format(right), total: format(answers) }),
  })));
  const set = (name, value) => { section.querySelector(`[data-${name}]`).textContent = value; };
  set("history-answers", format(totals.answers));
  set("history-accuracy", share(totals.right, totals.answers));
  set("history-reviews", format(totals.reviews));
  set("history-retention", share(totals.recalled, totals.reviews));
}
