/* Keyboard shortcuts where questions are answered: R shows or hides the answer, Enter or N
   go on, ? the list of keys; the question's own keys go to its type's module (questions/:
   1-9 or A-H choose, or toggle and Enter checks). Keys typed in a field, with a modifier,
   or Enter on a control are left alone. The list shows the rows of the question in view
   (its data-type's, [data-keys-for]) and those of every question. Loaded on the first key or
   use of the help button (main.js). Markup: macros.html keyboard_help. */

import { controllerOf } from "./question.js";

const TYPING = "input, textarea, select, [contenteditable]:not([contenteditable=false])";
const CONTROL = "a[href], button, summary, input, select, textarea";

/* The question in view: the one question of a question page, or the practice or review one shown. */
function current() {
  return Array.from(document.querySelectorAll(".question[data-question]")).find((q) => controllerOf(q) && !q.closest("[hidden]"));
}

/* The way on: a practice or review item's Next button once shown, else the page's next question. */
function nextControl(question) {
  const item = question && question.closest("[data-item]");
  const next = item ? item.querySelector("[data-next]") : document.querySelector("[data-next-question]");
  return next && !next.hidden ? next : null;
}

export function act(key, target) {
  const root = current();
  const help = document.querySelector("[data-keys]");
  if (key === "?") return toggleHelp(help, true);
  if (!root || (key === "Enter" && target.closest(CONTROL))) return false;
  if ((key === "r" || key === "R") && !controllerOf(root).quiet) { // an exam's answers stay hidden until it is handed in
    const reveal = root.querySelector("details.reveal");
    reveal.open = !reveal.open;
    reveal.querySelector("summary").focus();
    const status = help.querySelector("[data-keys-status]");
    status.textContent = reveal.open ? status.dataset.shown : status.dataset.hidden;
    return true;
  }
  if (controllerOf(root).key(key)) return true;
  const next = nextControl(root);
  if (next && (key === "n" || key === "N" || key === "Enter")) {
    next.click();
    return true;
  }
  return false;
}

/* The rows that say what works for the question in view. */
function showRows(help) {
  const root = current();
  help.querySelectorAll("[data-keys-for]").forEach((row) => { row.hidden = !root || row.dataset.keysFor !== root.dataset.type; });
}

/* Show or hide the list; from the ? key, also read it out, and bring it into view with the
   focus (closed, the focus goes back to its button). */
export function toggleHelp(help, say = false) {
  const toggle = help.querySelector("[data-keys-toggle]");
  const panel = help.querySelector("[data-keys-panel]");
  showRows(help);
  panel.hidden = !panel.hidden;
  toggle.setAttribute("aria-expanded", String(!panel.hidden));
  if (!say) return true;
  help.querySelector("[data-keys-status]").textContent = panel.hidden ? "" : panel.innerText.replace(/\s+/g, " ").trim();
  if (panel.hidden) return toggle.focus() || true;
  panel.tabIndex = -1;
  panel.scrollIntoView({ block: "nearest" });
  panel.focus({ preventScroll: true });
  return true;
}

/* After a click (Next brings another question), the rows follow the question in view. */
document.addEventListener("click", () => {
  const help = document.querySelector("[data-keys]");
  if (help) showRows(help);
});

/* A key pressed anywhere on the page (main.js loads this module on the first one): acted
   on once the question in view has its type's module. */
export function onKey(event) {
  if (event.defaultPrevented || event.ctrlKey || event.altKey || event.metaKey || event.target.closest(TYPING)) return;
  const root = current();
  const ready = root ? controllerOf(root).ready : Promise.resolve();
  ready.then(() => {
    act(event.key, event.target);
    const help = document.querySelector("[data-keys]");
    if (help) showRows(help);
  });
}
