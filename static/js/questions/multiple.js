/* multiple: select all that apply. Each choice is pressed or not (aria-pressed; its number
   or letter toggles it, Space too); Check, or Enter, answers. Right when the picks are
   exactly the right choices, data-judge {"answers": [indexes]}; each choice then says what
   it was (a right one missed among them), and the result names the right ones missed and
   the wrong ones picked. The choices: questions/choices.js. */

import { fill } from "../question.js";
import { listed, checkButton } from "./parts.js";
import { makeChoices } from "./choices.js";

/* Right when the picks are every right choice and no wrong one. */
export function judge(rule, given) {
  if (!Array.isArray(given) || !Array.isArray(rule.answers)) return false;
  const picked = new Set(given);
  return picked.size === new Set(rule.answers).size && rule.answers.every((index) => picked.has(index));
}

/* The right choices missed and the wrong ones picked, as indexes in order. */
export function differences(rule, picks) {
  const by = (a, b) => a - b;
  return { missed: rule.answers.filter((i) => !picks.includes(i)).sort(by), wrong: picks.filter((i) => !rule.answers.includes(i)).sort(by) };
}

export function start({ root, rule, strings, answer }) {
  const picked = new Set();
  let done = false;
  const choices = makeChoices(root, (index) => {
    if (done) return;
    if (!picked.delete(index)) picked.add(index);
    press(index, picked.has(index));
  });
  const words = choices.list.dataset; // multiple.html
  const press = (index, on) => {
    choices.buttons[index].setAttribute("aria-pressed", String(on));
    choices.items[index].classList.toggle("is-picked", on);
  };
  choices.buttons.forEach((button, index) => {
    press(index, false);
    button.addEventListener("keydown", (event) => { if (event.key === "Enter") { event.preventDefault(); check(); } });
  });
  const checker = checkButton(root, check);

  function check() { // with nothing picked there is no answer yet: the result says what to do
    if (done) return;
    if (!picked.size) return void (root.querySelector("[data-result]").textContent = words.textNone);
    done = true;
    choices.lock(checker.disabled = true);
    const picks = [...picked].sort((a, b) => a - b);
    const right = new Set(rule.answers);
    choices.items.forEach((item, index) => {
      if (picked.has(index)) choices.mark(index, right.has(index) ? "chosen-right" : "chosen-wrong", strings.marks[right.has(index) ? "chosen-right" : "chosen-wrong"], true);
      else if (right.has(index)) choices.mark(index, "correct", words.textMissedChoice);
    });
    const letters = (indexes) => listed(indexes.map(choices.letter));
    const correct = judge(rule, picks);
    const { missed, wrong } = differences(rule, picks);
    answer({ correct, given: picks }, fill(correct ? strings.rightIs : strings.wrongIs, { answer: letters(rule.answers) }), [
      ...(missed.length ? [fill(words.textMissed, { letters: letters(missed) })] : []),
      ...(wrong.length ? [fill(words.textPicked, { letters: letters(wrong) })] : []),
    ]);
  }

  return {
    key: (key) => (key === "Enter" ? (check(), true) : choices.key(key)),
    reset() {
      done = checker.disabled = false;
      picked.clear();
      choices.reset();
      choices.buttons.forEach((button, index) => press(index, false));
    },
    restore({ given = [] }) {
      for (const index of given) if (choices.buttons[index] && !picked.has(index)) { picked.add(index); press(index, true); }
      check();
    },
  };
}
