/* single: one right choice; choosing one answers (the choices: questions/choices.js).
   Judged by the index of the choice, data-judge {"answers": [index]}. The result names the
   right letter; the choice picked says whether it was right, and shows its feedback. */

import { fill } from "../question.js";
import { makeChoices } from "./choices.js";

export function judge(rule, given) {
  return Array.isArray(rule.answers) && rule.answers.length === 1 && Number.isInteger(given) && given === rule.answers[0];
}

export function start({ root, rule, strings, answer }) {
  let done = false;
  const choices = makeChoices(root, (index) => {
    if (done) return;
    done = true;
    choices.lock(true);
    const right = rule.answers[0];
    const correct = judge(rule, index);
    const kind = correct ? "chosen-right" : "chosen-wrong";
    choices.mark(index, kind, strings.marks[kind], true);
    if (!correct) choices.mark(right, "correct", strings.marks.correct);
    const letter = choices.letter(right);
    answer({ correct, choice: index }, choices.lettered
      ? fill(correct ? strings.right : strings.wrong, { letter })
      : fill(correct ? strings.rightIs : strings.wrongIs, { answer: letter }));
  });
  return {
    key: choices.key,
    reset() { done = false; choices.reset(); },
    restore({ choice }) { if (choices.buttons[choice]) choices.buttons[choice].click(); },
  };
}
