/* Keyboard shortcuts where questions are answered: 1-9 or A-H answer, Enter or N go on, R
   shows or hides the answer, ? the list of keys. Keys typed in a field, with a modifier,
   or Enter on a control are left alone. Loaded on the first key or use of the help button
   (main.js); question.js gives the controls their aria-keyshortcuts. Markup: macros.html
   keyboard_help. */

const TYPING = "input, textarea, select, [contenteditable]:not([contenteditable=false])";
const CONTROL = "a[href], button, summary, input, select, textarea";

/* The question in view: the one question of a question page, or the practice or review one shown. */
function current() {
  return Array.from(document.querySelectorAll(".question[data-question]")).find((q) => q.querySelector(".choice-button") && !q.closest("[hidden]"));
}

function choiceIndex(key) {
  if (/^[1-9]$/.test(key)) return Number(key) - 1;
  return /^[a-h]$/i.test(key) ? key.toLowerCase().charCodeAt(0) - 97 : -1;
}

/* The way on: a practice or review item's Next button once shown, else the page's next question. */
function nextControl(question) {
  const item = question && question.closest("[data-item]");
  const next = item ? item.querySelector("[data-next]") : document.querySelector("[data-next-question]");
  return next && !next.hidden ? next : null;
}

export function act(key, target) {
  const question = current();
  const help = document.querySelector("[data-keys]");
  if (key === "?") return toggleHelp(help, true);
  if (!question) return false;
  const index = choiceIndex(key);
  const buttons = question.querySelectorAll(".choice-button");
  if (index >= 0) {
    if (index >= buttons.length || buttons[index].disabled) return false;
    buttons[index].click();
    return true;
  }
  if (key === "r" || key === "R") {
    const reveal = question.querySelector("details.reveal");
    reveal.open = !reveal.open;
    reveal.querySelector("summary").focus();
    const status = help.querySelector("[data-keys-status]");
    status.textContent = reveal.open ? status.dataset.shown : status.dataset.hidden;
    return true;
  }
  const next = nextControl(question);
  if (next && (key === "n" || key === "N" || (key === "Enter" && !target.closest(CONTROL)))) {
    next.click();
    return true;
  }
  return false;
}

/* Show or hide the list; from the ? key, also read it out (focus stays where it was). */
export function toggleHelp(help, say = false) {
  const toggle = help.querySelector("[data-keys-toggle]");
  const panel = help.querySelector("[data-keys-panel]");
  panel.hidden = !panel.hidden;
  toggle.setAttribute("aria-expanded", String(!panel.hidden));
  if (say) help.querySelector("[data-keys-status]").textContent = panel.hidden ? "" : panel.textContent.replace(/\s+/g, " ").trim();
  return true;
}

/* A key pressed anywhere on the page (main.js loads this module on the first one). */
export function onKey(event) {
  if (event.defaultPrevented || event.ctrlKey || event.altKey || event.metaKey || event.target.closest(TYPING)) return;
  act(event.key, event.target);
}
