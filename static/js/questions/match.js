/* match: pair each left item with its right one. Each left item gets a list (a select,
   labelled by the item) of the right items, lettered as the page shows them; a letter or
   the arrow keys choose in it. Check answers: right when every pair is right (a right
   item's data-pair is the left item it belongs to; data-judge {"pairs": n}); each pair says
   whether it is right, and which is, and the result names the wrong ones. */

import { fill, make, markLabel, checkButton, listed } from "../question.js";

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
  const prefix = `q-${root.dataset.question}-pair-`;
  const lefts = Array.from(box.querySelectorAll("[data-left]"));
  const rights = Array.from(box.querySelectorAll("[data-pair]"));
  const textOf = (element) => (element.querySelector(".item-text") || element).textContent.trim();
  const rightText = (pair) => textOf(rights.find((item) => Number(item.dataset.pair) === pair));
  let done = false;

  const selects = lefts.map((left, index) => {
    const label = make("label", "left-text");
    const select = make("select");
    label.append(...left.childNodes);
    label.htmlFor = select.id = prefix + index;
    select.append(new Option(words.textChoose, ""), ...rights.map((item) => new Option(`${item.querySelector(".letter").textContent}. ${textOf(item)}`, item.dataset.pair)));
    left.append(label, select);
    return select;
  });
  box.classList.add("is-answerable");
  const check = checkButton(box, strings, finish);

  function finish() {
    if (done) return;
    done = true;
    const given = selects.map((select) => (select.value === "" ? -1 : Number(select.value)));
    const wrong = wrongPairs(given);
    lefts.forEach((left, index) => {
      const right = !wrong.includes(index);
      left.classList.add(right ? "is-chosen-right" : "is-chosen-wrong");
      left.append(markLabel(right ? strings.marks["chosen-right"] : fill(words.textPairIs, { item: rightText(index) })));
    });
    selects.forEach((select) => { select.disabled = true; });
    check.disabled = true;
    const correct = judge(rule, given);
    const pairs = wrong.map((left) => `${textOf(lefts[left].querySelector("label"))} – ${given[left] < 0 ? "?" : rightText(given[left])}`);
    answer({ correct, given }, correct ? words.textRight : fill(words.textWrong, { pairs: listed(pairs) }));
  }

  return {
    key: () => false,
    reset() {
      done = false;
      selects.forEach((select) => { select.value = ""; select.disabled = false; });
      lefts.forEach((left) => left.classList.remove("is-chosen-right", "is-chosen-wrong"));
      box.querySelectorAll("[data-mark]").forEach((label) => label.remove());
      check.disabled = false;
    },
  };
}
