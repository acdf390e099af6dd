/* Flashcards: the glossary's terms (the page's list of reveals, templates/flashcards.html)
   dealt one at a time, front first in the direction chosen: the term, its definition, or its
   name in term_language. Space or "Show the answer" turns the card, 1-4 or the buttons grade
   it Again, Hard, Good or Easy, and FSRS schedules it under its own key ("<term>:<side shown
   first>", main.js grade). The cards due come first, longest overdue first, then those never
   studied, in the glossary's order; one graded Again comes back at the end of the round. As
   in Anki, the focus goes to Good once the card is turned (Space again grades it Good) and
   back to "Show the answer" for the next card; a live line reads each side out and says what
   the grade did. */

import { fill } from "./question.js";
import { endOfDay } from "./storage.js";

const DAY = 24 * 3600 * 1000;
const spoken = (element) => element.textContent.replace(/\s+/g, " ").trim().replace(/[.:;]$/, "");
const FIELD = "input, textarea, select, [contenteditable]:not([contenteditable=false])";
const CONTROL = "button, a[href], summary";

/* The keys to study now, of these ("<term>:<side>", in the glossary's order), in a deck
   ({attempts, schedule}): the due, longest overdue first, and the new. */
export function deal(keys, deck, now = Date.now()) {
  const end = endOfDay(now);
  const planned = (key) => deck.schedule[key] && deck.attempts[key] && deck.schedule[key].count === deck.attempts[key].length;
  const due = keys.filter((key) => planned(key) && deck.schedule[key].due <= end).sort((a, b) => deck.schedule[a].due - deck.schedule[b].due);
  const fresh = keys.filter((key) => !(deck.attempts[key] || []).length);
  return { due, fresh };
}

/* Whole days from today to a time's day, in the reader's calendar (1: tomorrow). */
export function daysUntil(time, now = Date.now()) {
  const midnight = (t) => new Date(t).setHours(0, 0, 0, 0);
  return Math.round((midnight(time) - midnight(now)) / DAY);
}

export function start(context) {
  const root = document.querySelector("[data-flashcards]");
  const text = root.dataset;
  const find = (selector) => root.querySelector(selector);
  const entries = new Map(Array.from(document.querySelectorAll("[data-card-entry]"), (entry) => [entry.dataset.cardEntry, entry]));
  const [front, back] = ["front", "back"].map((side) => find(`[data-face="${side}"]`));
  const flipLine = find("[data-flip-line]");
  const grades = find("[data-grades]");
  const deckBox = find("[data-deck]");
  const done = find("[data-deck-done]");
  const announce = find("[data-announce]");
  const gradeName = (grade) => grades.querySelector(`[data-grade="${grade}"]`).lastChild.textContent.trim();
  const relative = new Intl.RelativeTimeFormat(document.documentElement.lang, { numeric: "auto" });
  const when = (time) => relative.format(Math.max(1, daysUntil(time)), "day");
  let direction = "term";
  let queue = [];
  let position = 0;
  let turned = false;
  let busy = false;
  let backWords = "";

  const sideOf = (entry, side) => entry.querySelector(`[data-side="${side}"]`);
  const label = (side) => text["label" + side[0].toUpperCase() + side.slice(1)];
  const keysFor = (front) => Array.from(entries.values()).filter((entry) => sideOf(entry, front)).map((entry) => `${entry.dataset.cardEntry}:${front}`);

  /* A face showing these sides of a term, each labelled; what it says, as a sentence to hear. */
  function showSides(face, entry, sides) {
    face.replaceChildren(...sides.filter((side) => sideOf(entry, side)).map((side) => {
      const block = document.createElement("div");
      const name = document.createElement("p");
      const body = document.createElement("div");
      name.className = "face-label";
      name.textContent = label(side);
      body.className = "face-text";
      const shown = sideOf(entry, side);
      if (shown.lang) body.lang = shown.lang;
      body.append(...Array.from(shown.childNodes, (node) => node.cloneNode(true)));
      block.append(name, body);
      return block;
    }));
    return Array.from(face.children, (block) => `${block.firstChild.textContent}: ${spoken(block.lastChild)}`).join(". ");
  }

  function begin(all) {
    const keys = keysFor(direction);
    const { due, fresh } = deal(keys, context.store.record().cards);
    queue = all ? keys : [...due, ...fresh];
    position = 0;
    find("[data-deck-counts]").textContent = fill(text.textCounts, { due: context.format(due.length), new: context.format(fresh.length) });
    return show("");
  }

  /* The card at position, front up; said is what the last grade did, read out before it. */
  function show(said, focus = false) {
    if (position >= queue.length) return finish(said, focus);
    const [id, side] = queue[position].split(":");
    const entry = entries.get(id);
    const heading = fill(text.textCard, { number: context.format(position + 1), total: context.format(queue.length) });
    find("[data-card-heading]").textContent = heading;
    const words = showSides(front, entry, [side]);
    backWords = showSides(back, entry, ["term", "definition", "name"].filter((other) => other !== side));
    turned = false;
    back.hidden = grades.hidden = true;
    flipLine.hidden = deckBox.hidden = false;
    done.hidden = true;
    announce.textContent = [said, `${heading}. ${words}`].filter(Boolean).join(" ");
    if (focus) find("[data-flip]").focus();
  }

  function turn() {
    if (turned || deckBox.hidden) return;
    turned = true;
    back.hidden = grades.hidden = false;
    flipLine.hidden = true;
    grades.querySelector('[data-grade="3"]').focus();
    announce.textContent = `${backWords}. ${text.textGradeIt}`;
  }

  async function grade(value) {
    if (!turned || busy) return;
    busy = true;
    const key = queue[position];
    try {
      await context.grade(key, value);
    } catch (error) {
      console.warn("studysite: not scheduled", error);
    }
    const planned = context.store.record().cards.schedule[key];
    let said = value === 1 ? text.textAgain : planned ? fill(text.textGraded, { grade: gradeName(value), when: when(planned.due) }) : gradeName(value);
    if (value === 1) queue.push(key);
    position += 1;
    busy = false;
    show(said, true);
  }

  function finish(said, focus) {
    deckBox.hidden = true;
    done.hidden = false;
    const { schedule } = context.store.record().cards;
    const later = keysFor(direction).map((key) => schedule[key] && schedule[key].due).filter((due) => due > endOfDay(Date.now()));
    const next = later.length ? fill(text.textNextDue, { when: when(Math.min(...later)) }) : "";
    const words = [text.textDone, next].filter(Boolean).join(" ");
    find("[data-done-text]").textContent = words;
    announce.textContent = [said, words].filter(Boolean).join(" ");
    if (focus) find("[data-done-text]").focus();
  }

  find("[data-flip]").addEventListener("click", turn);
  grades.querySelectorAll("[data-grade]").forEach((button) => button.addEventListener("click", () => grade(Number(button.dataset.grade))));
  find("[data-study-all]").addEventListener("click", () => { begin(true); find("[data-flip]").focus(); });
  root.querySelectorAll("[data-direction]").forEach((input) => input.addEventListener("change", () => {
    if (!input.checked) return;
    direction = input.value;
    begin(false);
  }));
  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.altKey || event.metaKey || event.target.closest(FIELD)) return;
    if (event.key === " " && !deckBox.hidden && !event.target.closest(CONTROL)) { // a control's own Space presses it
      event.preventDefault(); // not a scroll
      if (turned) grade(3);
      else turn();
    } else if (/^[1-4]$/.test(event.key) && turned) {
      event.preventDefault();
      grade(Number(event.key));
    }
  });
  root.hidden = false;
  begin(false);
}
