/* The reader's state next to every link to a question (not tried, right, wrong, due for
   review) and per-topic counts, in words: read from storage, never colour alone. */

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

/* "8 of 14 answered, 6 right" on every [data-topic-progress data-questions="id id ..."]. */
export function showCounts(scope, record, strings, format) {
  scope.querySelectorAll("[data-topic-progress]").forEach((element) => {
    const ids = element.dataset.questions.split(" ").filter(Boolean);
    const answered = ids.filter((id) => record.attempts[id]);
    const right = answered.filter((id) => record.attempts[id].at(-1).correct);
    element.textContent = fill(strings.counts, { answered: format(answered.length), total: format(ids.length), right: format(right.length) });
    element.hidden = false;
  });
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
