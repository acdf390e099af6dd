/* The reader's state in words next to every link to a question (not tried, right, wrong,
   due) and per-topic counts with a bar. */

import { stateOf } from "./storage.js";
import { fill } from "./question.js";

const QUESTION_PATH = /^[^/]+\/questions\/([a-z0-9]+(?:-[a-z0-9]+)*)\/$/;

/* The question id a link leads to on this site, or "". */
export function linkedQuestion(link, rootPath) {
  const url = new URL(link.href, document.baseURI);
  if (url.origin !== location.origin || !url.pathname.startsWith(rootPath) || url.hash) return "";
  const found = QUESTION_PATH.exec(url.pathname.slice(rootPath.length));
  return found ? found[1] : "";
}

function stateLabel(strings, state) {
  const label = document.createElement("span");
  label.className = "state state-" + state;
  label.dataset.state = state;
  label.textContent = strings.states[state];
  return label;
}

export function markLinks(scope, record, strings, rootPath) {
  scope.querySelectorAll("[data-state]").forEach((label) => { if (label.classList.contains("state")) label.remove(); });
  scope.querySelectorAll("a[href]").forEach((link) => {
    if (link.closest("[data-no-state], .reveal, nav")) return;
    const id = linkedQuestion(link, rootPath);
    if (id) link.after(" ", stateLabel(strings, stateOf(record, id)));
  });
}

/* "8 of 14 answered, 6 right, 2 due for review" on [data-topic-progress data-questions],
   and a bar for the eye only. */
export function showCounts(scope, record, strings, format, now = Date.now()) {
  scope.querySelectorAll("[data-topic-progress]").forEach((element) => {
    const ids = element.dataset.questions.split(" ").filter(Boolean);
    const states = ids.map((id) => stateOf(record, id, now));
    const answered = states.filter((state) => state !== "new").length;
    const right = ids.filter((id, i) => states[i] !== "new" && record.attempts[id].at(-1).correct).length;
    const due = states.filter((state) => state === "due").length;
    element.textContent = fill(strings.counts, { answered: format(answered), total: format(ids.length), right: format(right), due: format(due) });
    element.append(bar(right / (ids.length || 1), answered / (ids.length || 1)));
    element.hidden = false;
  });
}

function bar(right, answered) {
  const outer = document.createElement("span");
  outer.className = "progress-bar";
  outer.setAttribute("aria-hidden", "true");
  for (const [kind, share] of [["answered", answered], ["right", right]]) {
    const part = document.createElement("span");
    part.className = "bar-" + kind;
    part.style.width = (share * 100).toFixed(1) + "%";
    outer.append(part);
  }
  return outer;
}

/* A question page's own state: "Your last answer: wrong". */
export function showOwnState(scope, record, strings) {
  scope.querySelectorAll("[data-own-state]").forEach((element) => {
    const state = stateOf(record, element.dataset.ownState);
    element.textContent = state === "new" ? "" : strings.last[state];
    element.hidden = state === "new";
  });
}

export function refreshMarkers(scope, record, strings, rootPath, format) {
  markLinks(scope, record, strings, rootPath);
  showCounts(scope, record, strings, format);
  showOwnState(scope, record, strings);
}
