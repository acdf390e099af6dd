/* What the choice-based types share (single, true-false, multiple): the choices made
   buttons (a choice's letter is its button, named with its text; without letters, as in
   true-false, its words are), the keys that press them (1-9, A-H), and after the answer
   each choice marked in words, a picked one with its feedback from the reveal
   (dd[data-feedback]) beside it. Markup: templates/questions/_choices.html. */

import { secondClick, markLabel } from "../question.js";

/* The index of a choice key: 1-9, or a letter A-H; -1 for any other key. */
export function choiceIndex(key) {
  if (/^[1-9]$/.test(key)) return Number(key) - 1;
  return /^[a-h]$/i.test(key) ? key.toLowerCase().charCodeAt(0) - 97 : -1;
}

/* The choices of a question as buttons, each pressed calling pick(index). */
export function makeChoices(root, pick) {
  const list = root.querySelector("[data-choices]");
  const items = Array.from(list.children);
  const prefix = "q-" + root.dataset.question;
  const lettered = Boolean(list.querySelector(".letter"));
  const buttons = items.map((item, index) => {
    const text = item.querySelector(".choice-text");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "choice-button";
    button.id = `${prefix}-choice-${index}`;
    if (lettered) {
      text.id = `${prefix}-text-${index}`;
      button.append(item.querySelector(".letter"));
      button.setAttribute("aria-labelledby", `${button.id} ${text.id}`);
    } else button.append(text);
    if (index < 8) button.setAttribute("aria-keyshortcuts", lettered ? `${index + 1} ${"ABCDEFGH"[index]}` : `${index + 1}`); // keys.js
    item.prepend(button);
    button.addEventListener("click", (event) => { if (!secondClick(event)) pick(index); });
    item.addEventListener("click", (event) => { if (!event.target.closest("a, button") && !secondClick(event)) button.click(); });
    return button;
  });
  list.classList.add("is-answerable");
  const lock = (locked) => buttons.forEach((button) => { button.disabled = locked; });
  return {
    list, items, buttons, lettered, lock,
    letter: (index) => (lettered ? items[index].querySelector(".letter") : buttons[index]).textContent.trim(),
    key(key) {
      const index = choiceIndex(key);
      if (index < 0 || index >= buttons.length) return false;
      buttons[index].click();
      return true;
    },
    /* A choice marked in words (kind: chosen-right, chosen-wrong, correct), and its feedback when it was picked. */
    mark(index, kind, words, picked) {
      items[index].classList.add("is-" + kind);
      items[index].append(markLabel(words));
      const given = picked && root.querySelector(`.reveal [data-feedback="${index}"]`);
      if (given) {
        const feedback = markLabel("");
        feedback.className = "choice-feedback";
        feedback.append(...Array.from(given.childNodes, (node) => node.cloneNode(true)));
        items[index].append(feedback);
      }
    },
    reset() {
      items.forEach((item) => item.classList.remove("is-chosen-right", "is-chosen-wrong", "is-correct", "is-picked"));
      list.querySelectorAll("[data-mark]").forEach((label) => label.remove());
      lock(false);
    },
  };
}
