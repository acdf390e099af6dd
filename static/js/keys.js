/* Keyboard shortcuts wherever questions are answered (question, practice and review
   pages): 1-9 or A-H choose an answer of the question in view, Enter or N go on to the
   next question, R shows or hides the answer, ? shows or hides the list of shortcuts. A key
   typed in a field, or with Ctrl, Alt or Meta, is left alone, and so is Enter on a control,
   which does its own thing.

   Markup (macros.html keyboard_help): [data-keys] > [data-keys-toggle], [data-keys-panel],
   [data-keys-status] (a live region for what a key did that nothing else says). */

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
function toggleHelp(help, say = false) {
  const toggle = help.querySelector("[data-keys-toggle]");
  const panel = help.querySelector("[data-keys-panel]");
  panel.hidden = !panel.hidden;
  toggle.setAttribute("aria-expanded", String(!panel.hidden));
  if (say) help.querySelector("[data-keys-status]").textContent = panel.hidden ? "" : panel.textContent.replace(/\s+/g, " ").trim();
  return true;
}

/* Each control says its key to assistive technology. */
export function label(scope) {
  scope.querySelectorAll("ol[data-choices]").forEach((list) => {
    list.querySelectorAll(".choice-button").forEach((button, i) => {
      if (i < 8) button.setAttribute("aria-keyshortcuts", `${i + 1} ${String.fromCharCode(65 + i)}`);
    });
  });
  scope.querySelectorAll("details.reveal > summary").forEach((summary) => summary.setAttribute("aria-keyshortcuts", "R"));
  scope.querySelectorAll("[data-next]").forEach((next) => next.setAttribute("aria-keyshortcuts", "Enter N"));
}

export function start(context) {
  const help = document.querySelector("[data-keys]");
  context.labelKeys = label; // for the questions a session adds later
  help.querySelector("[data-keys-toggle]").addEventListener("click", () => toggleHelp(help));
  label(document);
  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.altKey || event.metaKey || event.target.closest(TYPING)) return;
    if (act(event.key, event.target)) event.preventDefault();
  });
  help.hidden = false;
}
