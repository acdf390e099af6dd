/* The entry module of every page: opens the progress (saying once when it cannot be kept);
   marks question links with their state, again on a "studysite:links" event, an answer in
   another tab, Back, or the tab coming into view; shows the due count on the menu's Review
   link (and the flashcards due, where a page shows them); schedules every answer and every
   flashcard's grade (the scheduler loaded when needed); starts the components found by their
   data- attributes, each guarded. Words: the page's #study-strings. */

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

/* Once per browser session on opening a page; again on any page where an answer is not kept. */
function sayOnce(store, strings, problem) {
  const key = store.key + ":told:" + problem;
  try {
    if (sessionStorage.getItem(key)) return;
    sessionStorage.setItem(key, "1");
  } catch (error) { /* tell on this page */ }
  say(strings, problem);
}

function say(strings, problem) {
  if (document.querySelector("[data-storage-notice]")) return;
  const notice = document.createElement("p");
  notice.className = "notice storage-notice";
  notice.setAttribute("role", "status");
  notice.dataset.storageNotice = problem;
  notice.textContent = strings.storage[problem];
  document.querySelector("main").prepend(notice);
}

/* A load done once and shared; one that failed (offline) is tried again by the next call. */
function once(load) {
  let promise = null;
  return () => {
    if (!promise) {
      promise = load();
      promise.catch(() => { promise = null; });
    }
    return promise;
  };
}

/* The ids of the site's questions, or the keys of its flashcards (a Set); the review page
   lists its questions itself. */
function siteIds(url, listedIn = "") {
  const listed = listedIn && readJSON(listedIn);
  if (listed) return Promise.resolve(new Set(Object.keys(listed)));
  return fetch(url).then((r) => r.json()).then((ids) => new Set(ids.map(String)));
}

/* How many of these due ids the site has (a promise): all of them when its list cannot be had (offline). */
async function countKnown(due, known) {
  if (!due.length) return 0;
  const ids = await known().catch(() => null);
  return ids ? due.filter((id) => ids.has(id)).length : due.length;
}

/* The due count on the menu's Review link: a number to see, a sentence to hear. */
function showBadge(count, strings, format) {
  document.querySelectorAll("[data-due-badge], [data-menu-badge]").forEach((badge) => {
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

/* keys.js loads on the first key or use of the help button; not for what is typed in a
   field (an answer written), which it leaves alone. */
function offerKeys(help) {
  const keys = once(() => import("./keys.js"));
  const load = (use) => keys().then(use).catch((error) => console.warn("studysite keys:", error));
  document.addEventListener("keydown", (event) => { if (!event.target.closest("input, textarea, select")) load((m) => m.onKey(event)); });
  help.querySelector("[data-keys-toggle]").addEventListener("click", () => load((m) => m.toggleHelp(help)));
  help.hidden = false;
}

function makeContext(strings, main) {
  const rootPath = new URL("../../", import.meta.url).pathname; // this module is <root>assets/js.<hash>/main.js
  const store = new Store(rootPath);
  const numbers = new Intl.NumberFormat(document.documentElement.lang);
  const format = (n) => numbers.format(n);
  const siteURL = new URL(rootPath, location.href);
  const ids = once(() => siteIds(new URL(strings.questions, siteURL), "review-questions"));
  const cards = once(() => siteIds(new URL(strings.cards, siteURL)));
  let turn = 0;
  const context = {
    store, strings, rootPath, format, onRefresh: [], onDue: [], onDueCards: [],
    refresh() {
      const record = store.record(), mine = ++turn;
      context.onRefresh.forEach((show) => show(record)); // first: the links they draw get their state too
      refreshMarkers(main, record, strings, rootPath, format);
      context.dueCount(record).then((count) => {
        if (mine === turn) [(n) => showBadge(n, strings, format), ...context.onDue].forEach((show) => show(count));
      });
      if (context.onDueCards.length) {
        countKnown(dueIds(record.cards), cards).then((count) => { if (mine === turn) context.onDueCards.forEach((show) => show(count)); });
      }
    },
    /* How many of the site's questions are due (a promise): not those it no longer has. */
    dueCount(record) {
      return countKnown(dueIds(record), ids);
    },
    scheduler: once(() => Promise.all([import("./schedule.js"), import(new URL(strings.scheduler, siteURL).href)])
      .then(([schedule, lib]) => schedule.makeScheduler(lib))),
    /* Plan these questions (by default those whose schedule lags). */
    async schedule(ids = unscheduled(store.record())) {
      if (!ids.length) return;
      const scheduler = await context.scheduler();
      const attempts = store.record().attempts;
      store.setSchedule(scheduler.plan(Object.fromEntries(ids.filter((id) => attempts[id]).map((id) => [id, attempts[id]]))));
      context.refresh();
    },
    answer(id, attempt) {
      store.addAttempt(id, attempt);
      if (!store.live() && store.problem) say(strings, store.problem); // the answer is not kept: tell it here
      context.refresh();
      return context.schedule(); // this answer, and any an earlier failure left unplanned
    },
    /* Plan the flashcards whose schedule lags behind their grades. */
    async scheduleCards() {
      const ids = unscheduled(store.record().cards);
      if (!ids.length) return;
      const scheduler = await context.scheduler();
      const reviews = store.record().cards.attempts;
      store.setSchedule(scheduler.plan(Object.fromEntries(ids.map((id) => [id, reviews[id]]))), "cards");
      context.refresh();
    },
    grade(card, grade) {
      store.addReview(card, grade);
      if (!store.live() && store.problem) say(strings, store.problem);
      return context.scheduleCards();
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
  guarded("schedule", () => context.scheduleCards());
  // Answers given in another tab, or since the browser kept this page for Back: shown at once.
  addEventListener("storage", (event) => { if (event.key === store.key) guarded("markers", context.refresh); });
  addEventListener("pageshow", (event) => { if (event.persisted) guarded("markers", context.refresh); });
  // A tab left open overnight: what is due and what was answered today follow the clock.
  // Links a script added (the search page's results) get their state too.
  document.addEventListener("studysite:links", () => guarded("markers", context.refresh));
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") guarded("markers", context.refresh); });
  document.querySelectorAll("[data-question-page]").forEach((root) => guarded("question", () => {
    enhanceQuestion(root, { strings, onAnswer: (attempt) => guarded("answer", () => context.answer(root.dataset.question, attempt)) });
  }));
  const keys = document.querySelector("[data-keys]");
  if (keys) guarded("keys", () => offerKeys(keys));
  const modules = {
    "[data-practice]": "./practice.js", "[data-review]": "./review.js", "[data-dashboard]": "./dashboard.js",
    "[data-flashcards]": "./flashcards.js", "[data-exam]": "./exam.js",
  };
  for (const [selector, module] of Object.entries(modules)) {
    if (document.querySelector(selector)) guarded(module, () => import(module).then((m) => m.start(context)));
  }
}

start();
