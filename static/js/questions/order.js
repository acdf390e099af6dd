/* order: put the items in their order. Each item's Move up and Move down buttons (in the
   page, named with the item: templates/questions/order.html) are shown; on them the arrow
   keys move it too, the focus going with it, and a live line says where it went (never
   drag only). Check answers: right when every item is in its place (its data-position is
   its place in the right order; data-judge {"items": n}); each item then says whether it
   is in its place, and the result names those that are not. */

import { fill, markLabel } from "../question.js";
import { make, checkButton, listed } from "./parts.js";

export function judge(rule, given) {
  return Array.isArray(given) && given.length === rule.items && given.every((position, place) => position === place);
}

/* The places (indexes) whose item is not the one that belongs there. */
export function outOfPlace(given) {
  return given.flatMap((position, place) => (position === place ? [] : [place]));
}

export function start({ root, rule, answer }) {
  const list = root.querySelector("[data-order]");
  const words = list.dataset;
  const shuffled = Array.from(list.children); // the build's order, which reset puts back
  const status = make("p", "visually-hidden");
  const format = new Intl.NumberFormat(document.documentElement.lang).format;
  const nameOf = (item) => item.querySelector(".item-text").textContent.trim();
  const buttons = Array.from(list.querySelectorAll(".move"));
  let done = false;
  status.setAttribute("role", "status");
  list.after(status);
  list.classList.add("is-answerable");
  for (const button of buttons) {
    const item = button.closest("li");
    button.parentElement.hidden = false;
    button.addEventListener("click", () => move(item, Number(button.dataset.step), button));
    button.addEventListener("keydown", (event) => {
      const step = { ArrowUp: -1, ArrowDown: 1 }[event.key];
      if (!step) return;
      event.preventDefault();
      move(item, step, item.querySelector(`[data-step="${step}"]`));
    });
  }
  const check = checkButton(root, finish);
  refresh();

  /* The neighbour moves round the item, so the item (and the focus in it) stays in the page. */
  function move(item, step, button) {
    const items = Array.from(list.children);
    const to = items.indexOf(item) + step;
    if (done || to < 0 || to >= items.length) return;
    list.insertBefore(items[to], step < 0 ? item.nextSibling : item);
    refresh();
    (button.disabled ? item.querySelector(`[data-step="${-step}"]`) : button).focus();
    status.textContent = fill(words.textMoved, { item: nameOf(item), number: format(to + 1), total: format(items.length) });
  }

  /* A button that would move its item past an end is off (and so is every one once answered). */
  function refresh() {
    const last = list.children.length - 1;
    for (const button of buttons) {
      const to = Array.prototype.indexOf.call(list.children, button.closest("li")) + Number(button.dataset.step);
      button.disabled = done || to < 0 || to > last;
    }
  }

  function finish() {
    if (done) return;
    done = check.disabled = true;
    const items = Array.from(list.children);
    const given = items.map((item) => Number(item.dataset.position));
    const wrong = outOfPlace(given);
    items.forEach((item, place) => {
      const right = !wrong.includes(place);
      item.classList.add(right ? "is-chosen-right" : "is-chosen-wrong");
      item.append(markLabel(right ? words.textIn : fill(words.textOut, { number: format(given[place] + 1) })));
    });
    refresh();
    status.textContent = "";
    const correct = judge(rule, given);
    answer({ correct, given }, correct ? words.textRight : fill(words.textWrong, { items: listed(wrong.map((place) => nameOf(items[place]))) }));
  }

  return {
    key: () => false,
    reset() {
      done = check.disabled = false;
      list.append(...shuffled);
      shuffled.forEach((item) => item.classList.remove("is-chosen-right", "is-chosen-wrong"));
      list.querySelectorAll("[data-mark]").forEach((label) => label.remove());
      status.textContent = "";
      refresh();
    },
    restore({ given = [] }) { // each place's item, by the place it belongs in
      const items = Array.from(list.children);
      const byPosition = new Map(items.map((item) => [Number(item.dataset.position), item]));
      if (given.length === items.length && given.every((position) => byPosition.has(position))) list.append(...given.map((position) => byPosition.get(position)));
      finish();
    },
  };
}
