/* Study features: the entry module every page loads. It opens the reader's progress,
   says once when it cannot be kept, marks question links with their state and starts the
   components found on the page by their data- attributes. Each component is guarded: a
   fault in one leaves the others, and the page without it, as they were.

   Text comes from the page: the JSON block #study-strings written by the templates. */

import { Store } from "./storage.js";
import { enhanceQuestion } from "./question.js";
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

function start() {
  const strings = readJSON("study-strings");
  const main = document.querySelector("main");
  if (!strings || !main) return;
  const rootPath = new URL("../../", import.meta.url).pathname; // this module is <root>assets/js.<hash>/main.js
  const store = new Store(rootPath);
  const numbers = new Intl.NumberFormat(document.documentElement.lang);
  const context = { store, strings, rootPath, format: (n) => numbers.format(n), refresh: () => refreshMarkers(main, store.record(), strings, rootPath, context.format) };
  if (store.problem) sayOnce(store, strings, store.problem);
  store.onProblem = (problem) => sayOnce(store, strings, problem);
  guarded("markers", context.refresh);
  document.querySelectorAll("[data-question-page]").forEach((root) => guarded("question", () => {
    enhanceQuestion(root, { strings, onAnswer: (choice, correct) => store.addAttempt(root.dataset.question, choice, correct) });
  }));
  if (document.querySelector("[data-practice]")) guarded("practice", () => import("./practice.js").then((m) => m.startPractice(context)));
  if (document.querySelector("[data-review]")) guarded("review", () => import("./review.js").then((m) => m.startReview(context)));
}

start();
