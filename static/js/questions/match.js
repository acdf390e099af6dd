/* match: pair each left item with its right one. Each left item's list of the right items
   (a select labelled by the item, in the page: templates/questions/match.html) is shown;
   a letter or the arrow keys choose in it. Check answers: right when every pair is right
   (a right item's data-pair is the left item it belongs to; data-judge {"pairs": n});
   each pair then says whether it is right, and which is, and the result names the wrong
   ones. */

import { fill, markLabel } from "../question.js";
import { checkButton, listed } from "./parts.js";

export function judge(rule, given) {
  return Array.isArray(given) && given.length === rule.pairs && given.every((pair, left) => pair === left);
}

/* The left items (indexes) paired wrongly, or not at all (-1). */
export function wrongPairs(given) {
  return given.flatMap((pair, left) => (pair === left ? [] : [left]));
}

export function start({ root, rule, strings, answer }) {
  const box = root.querySelector("[data-match]");
  const words = box.dataset;
  const lefts = Array.from(box.querySelectorAll("[data-left]"));
  const selects = lefts.map((left) => left.querySelector("select"));
  const textOf = (element) => element.textContent.trim();
  const rightText = (pair) => textOf(box.querySelector(`[data-pair="${pair}"] .item-text`));
  let done = false;
  selects.forEach((select) => { select.hidden = false; });
  box.classList.add("is-answerable");
  const check = checkButton(root, finish);

  function finish() {
    if (done) return;
    done = check.disabled = true;
    const given = selects.map((select) => (select.value === "" ? -1 : Number(select.value)));
    const wrong = wrongPairs(given);
    lefts.forEach((left, index) => {
      const right = !wrong.includes(index);
      left.classList.add(right ? "is-chosen-right" : "is-chosen-wrong");
      left.append(markLabel(right ? strings.marks["chosen-right"] : fill(words.textPairIs, { item: rightText(index) })));
    });
    selects.forEach((select) => { select.disabled = true; });
    const correct = judge(rule, given);
    const pairs = wrong.map((left) => `${textOf(lefts[left].querySelector("label"))} – ${given[left] < 0 ? "?" : rightText(given[left])}`);
    answer({ correct, given }, correct ? words.textRight : fill(words.textWrong, { pairs: listed(pairs) }));
  }

  return {
    key: () => false,
    reset() {
      done = check.disabled = false;
      selects.forEach((select) => { select.value = ""; select.disabled = false; });
      lefts.forEach((left) => left.classList.remove("is-chosen-right", "is-chosen-wrong"));
      box.querySelectorAll("[data-mark]").forEach((label) => label.remove());
    },
    restore({ given = [] }) { // each left item's pick, -1 for none
      selects.forEach((select, left) => { select.value = given[left] >= 0 ? String(given[left]) : ""; });
      finish();
    },
  };
}
