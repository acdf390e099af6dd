/* The review page: one list to review (due, then wrong) whose place a review session takes
   while it runs (practice.js's Session over the questions, fetched from their pages), a
   chart of the coming days, the flashcards due, the history of the last 30 days
   (history.js), export, import and reset. Markup: templates/review.html. */

import { Session, linkList } from "./practice.js";
import { dueIds, endOfDay } from "./storage.js";
import { fill, fetchQuestion } from "./question.js";
import { drawDueChart } from "./chart.js";
import { showHistory } from "./history.js";
import { exportData, importText } from "./keeping.js";

const CHART_DAYS = 7;
const DAY = 24 * 3600 * 1000;
const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

/* The list to review: the questions due today, longest overdue first, then those whose
   last answer was wrong. */
export function toReview(record, known, now = Date.now()) {
  const due = dueIds(record, now).filter((id) => known.has(id));
  const shown = new Set(due);
  const wrong = Object.keys(record.attempts).filter((id) => known.has(id) && !shown.has(id) && !record.attempts[id].at(-1).correct);
  return due.concat(wrong);
}

function drawChart(root, context, known) {
  const { schedule, attempts } = context.store.record();
  const ids = Object.keys(attempts).filter((id) => known.has(id) && schedule[id] && schedule[id].count === attempts[id].length);
  const lang = document.documentElement.lang;
  const short = new Intl.DateTimeFormat(lang, { weekday: "short" });
  const long = new Intl.DateTimeFormat(lang, { weekday: "long", day: "numeric", month: "long" });
  drawDueChart(root.querySelector("[data-chart]"), dueByDay(schedule, ids, CHART_DAYS), {
    number: context.format,
    day: (day) => short.format(day),
    item: ({ day, count }) => fill(root.dataset.textDay, { date: long.format(day), count: context.format(count) }),
  });
}

/* [{day (its last ms), count}] of these ids due on each coming day, the overdue today.
   Days step from noon: one of 23 or 25 hours is neither skipped nor counted twice. */
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

export async function start(context) {
  const root = document.querySelector("[data-review]");
  const text = root.dataset;
  const index = JSON.parse(document.getElementById("review-questions").textContent);
  const known = new Set(Object.keys(index));
  const rootURL = new URL(context.rootPath, location.href);
  const { store } = context;
  const sessionRoot = root.querySelector("[data-session]");
  const listSection = root.querySelector("[data-list-section]");
  const session = new Session(sessionRoot, context, text);
  const find = (selector) => root.querySelector(selector);

  let listed = null; // the ids the list shows, joined
  /* The list and the chart as the record is now (also after an answer in another tab, or
     on Back to this page): the list is drawn again only when it changed, so a link in it
     keeps the focus. */
  function showList() {
    const ids = toReview(store.record(), known);
    if (ids.join(" ") !== listed) {
      listed = ids.join(" ");
      linkList(find("[data-list]"), ids.map((id) => [index[id].title, new URL(index[id].path, rootURL).href]));
      find("[data-list-none]").hidden = ids.length > 0;
      find("[data-start-review]").hidden = ids.length === 0;
    }
    drawChart(root, context, known);
    showHistory(root.querySelector("[data-history]"), store.record(), context.format);
    return ids;
  }

  function render() {
    const ids = showList();
    context.refresh();
    return ids;
  }

  /* The questions' own pages are fetched together; the session starts only when every
     one arrived, and the button is off meanwhile, so a double click cannot start two. The
     session takes the list's place while it runs; when a page cannot be had, the button
     says so beside it. */
  async function startSession() {
    const button = find("[data-start-review]");
    const status = find("[data-start-result]");
    button.disabled = true;
    status.textContent = "";
    try {
      const ids = render();
      const template = find("[data-item-template]");
      const items = await Promise.all(ids.map(async (id) => {
        const item = template.content.firstElementChild.cloneNode(true);
        const url = new URL(index[id].path, rootURL).href;
        Object.assign(item.dataset, { question: id, href: url, title: index[id].title });
        item.querySelector("[data-slot]").replaceWith(await fetchQuestion(url));
        return item;
      }));
      session.clear();
      for (const item of items) {
        sessionRoot.querySelector("[data-session-items]").append(item);
        session.add(item);
      }
      session.begin(session.allIds(), true);
    } catch (error) {
      status.textContent = text.unavailable;
    } finally {
      button.disabled = false;
    }
  }

  session.onBegin = () => { // also "start over" and "practise these again" on the end screen
    listSection.hidden = true;
    sessionRoot.hidden = false;
  };
  session.onFinish = () => {
    listSection.hidden = false;
    render();
  };
  find("[data-start-review]").addEventListener("click", () => { startSession(); });
  setUpKeeping(root, context, known, render);
  context.onRefresh.push(() => { if (!listSection.hidden) showList(); });
  context.onDueCards.push((count) => { find("[data-due-cards]").textContent = context.format(count); });
  await context.schedule().catch(() => {}); // what was answered before scheduling was everywhere
  render();
  root.hidden = false;
}

function setUpKeeping(root, context, known, render) {
  const { store } = context;
  const text = root.dataset;
  const find = (selector) => root.querySelector(selector);
  const result = find("[data-import-result]");

  find("[data-export]").addEventListener("click", () => {
    const blob = new Blob([JSON.stringify(exportData(store), null, 2)], { type: "application/json" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = `studysite-progress-${new Date().toISOString().slice(0, 10)}.json`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  });

  const input = find("[data-import]");
  input.addEventListener("change", async () => {
    const file = input.files[0];
    if (!file) return;
    let problem;
    try {
      problem = file.size > MAX_IMPORT_BYTES ? "large" : importText(store, await file.text(), known);
    } catch (error) { // a file the browser cannot read, or one no check foresaw
      console.warn("studysite import:", error);
      problem = "corrupt";
    }
    input.value = "";
    if (problem) {
      result.textContent = text["refused" + problem[0].toUpperCase() + problem.slice(1)] || text.refusedUnsaved;
      return;
    }
    const count = Object.keys(store.record().attempts).filter((id) => known.has(id)).length;
    result.textContent = fill(text.imported, { count: context.format(count) });
    render();
    context.schedule().then(render); // the imported answers' schedule
  });

  const confirm = find("[data-confirm]");
  find("[data-reset]").addEventListener("click", () => {
    confirm.hidden = false;
    confirm.querySelector("#confirm-text").focus();
  });
  find("[data-cancel-reset]").addEventListener("click", () => {
    confirm.hidden = true;
    find("[data-reset]").focus();
  });
  find("[data-confirm-reset]").addEventListener("click", () => {
    store.reset();
    confirm.hidden = true;
    // storage newer, full or off: only this page's copy was erased
    result.textContent = !store.live() && store.problem ? context.strings.storage[store.problem] : text.erased;
    render();
    find("[data-reset]").focus();
  });
}
