/* Study features: the entry module every page loads. It opens the reader's progress,
   says once when it cannot be kept, marks question links with their state, shows on the
   menu's Review link how many questions are due, and starts the components found on the
   page by their data- attributes. Each component is guarded: a fault in one leaves the
   others, and the page without it, as they were.

   Every answer, on any page, is scheduled at once (context.schedule): the scheduler
   (schedule.js over ts-fsrs, whose path the study strings give) is loaded only when there
   is something to schedule, and also plans what an import or an older page left unplanned.

   Text comes from the page: the JSON block #study-strings written by the templates. */

import { Store, dueIds, unscheduled } from "./storage.js";
import { enhanceQuestion, fill } from "./question.js";
import { refreshMarkers } from "./markers.js";

function readJSON(id) {
  const block = document.getElementById(id);
  return block ? JSON.parse(block.textContent) : null;
}

function guarded(name, run) {
  try {
    const done = run();
    if (done && done.catch) done.catch((error) => console.warn(`studysite ${name}:`, error));
  } catch (error) {
    console.warn(`studysite ${name}:`, error);
  }
}

/* Once per browser session (once per page where even sessionStorage is unavailable). */
function sayOnce(store, strings, problem) {
  const key = store.key + ":told:" + problem;
  try {
    if (sessionStorage.getItem(key)) return;
    sessionStorage.setItem(key, "1");
  } catch (error) { /* tell on this page */ }
  if (document.querySelector("[data-storage-notice]")) return;
  const notice = document.createElement("p");
  notice.className = "notice storage-notice";
  notice.setAttribute("role", "status");
  notice.dataset.storageNotice = problem;
  notice.textContent = strings.storage[problem];
  document.querySelector("main").prepend(notice);
}

/* The count of questions due on the menu's Review link: a number to see, a sentence to hear. */
function showBadge(record, strings, format) {
  const count = dueIds(record).length;
  document.querySelectorAll("[data-due-badge]").forEach((badge) => {
    const number = document.createElement("span");
    const words = document.createElement("span");
    number.setAttribute("aria-hidden", "true");
    number.textContent = format(count);
    words.className = "visually-hidden";
    words.textContent = " (" + fill(strings.badge, { count: format(count) }) + ")";
    badge.replaceChildren(number, words);
    badge.hidden = count === 0;
  });
}

function makeContext(strings, main) {
  const rootPath = new URL("../../", import.meta.url).pathname; // this module is <root>assets/js.<hash>/main.js
  const store = new Store(rootPath);
  const numbers = new Intl.NumberFormat(document.documentElement.lang);
  const format = (n) => numbers.format(n);
  let loading = null;
  const context = {
    store, strings, rootPath, format, onRefresh: [],
    refresh() {
      const record = store.record();
      refreshMarkers(main, record, strings, rootPath, format);
      showBadge(record, strings, format);
      context.onRefresh.forEach((show) => show(record));
    },
    scheduler() {
      loading = loading || Promise.all([import("./schedule.js"), import(new URL(strings.scheduler, new URL(rootPath, location.href)).href)])
        .then(([schedule, lib]) => schedule.makeScheduler(lib));
      return loading;
    },
    /* Plan these questions (or every one whose schedule is behind its attempts) and show it. */
    async schedule(ids = unscheduled(store.record())) {
      if (!ids.length) return;
      const scheduler = await context.scheduler();
      const attempts = store.record().attempts;
      store.setSchedule(scheduler.plan(Object.fromEntries(ids.filter((id) => attempts[id]).map((id) => [id, attempts[id]]))));
      context.refresh();
    },
    answer(id, choice, correct) {
      store.addAttempt(id, choice, correct);
      context.refresh();
      return context.schedule([id]);
    },
  };
  return context;
}

function start() {
  const strings = readJSON("study-strings");
  const main = document.querySelector("main");
  if (!strings || !main) return;
  const context = makeContext(strings, main);
  const { store } = context;
  if (store.problem) sayOnce(store, strings, store.problem);
  store.onProblem = (problem) => sayOnce(store, strings, problem);
  guarded("markers", context.refresh);
  guarded("schedule", () => context.schedule());
  document.querySelectorAll("[data-question-page]").forEach((root) => guarded("question", () => {
    enhanceQuestion(root, { strings, onAnswer: (choice, correct) => guarded("answer", () => context.answer(root.dataset.question, choice, correct)) });
  }));
  const modules = { "[data-practice]": "./practice.js", "[data-review]": "./review.js", "[data-dashboard]": "./dashboard.js", "[data-keys]": "./keys.js" };
  for (const [selector, module] of Object.entries(modules)) {
    if (document.querySelector(selector)) guarded(module, () => import(module).then((m) => m.start(context)));
  }
}

start();
