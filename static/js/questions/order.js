/* order: put the items in their order. Each item gets Move up and Move down buttons, named
   with the item; on them the arrow keys move it too, the focus going with it, and a live
   line says where it went (never drag only). Check answers: right when every item is in its
   place (its data-position is its place in the right order; data-judge {"items": n}); each
   item says whether it is in its place, and the result names those that are not. */

import { fill, make, markLabel, checkButton, listed } from "../question.js";

export function judge(rule, given) {
  return Array.isArray(given) && given.length === rule.items && given.every((position, place) => position === place);
}

/* The places (indexes) whose item is not the one that belongs there. */
export function outOfPlace(given) {
  return given.flatMap((position, place) => (position === place ? [] : [place]));
}

export function start({ root, rule, strings, answer }) {
  const list = root.querySelector("[data-order]");
  const words = list.dataset;
  const shuffled = Array.from(list.children); // the build's order, which reset puts back
  const status = make("p", "visually-hidden");
  const format = new Intl.NumberFormat(document.documentElement.lang).format;
  const nameOf = (item) => item.querySelector(".item-text").textContent.trim();
  let done = false;
  status.setAttribute("role", "status");

  shuffled.forEach((item) => {
    const moves = make("span", "moves");
    for (const [step, glyph, name] of [[-1, "↑", words.textUp], [1, "↓", words.textDown]]) {
      const button = make("button", "move", glyph);
      button.type = "button";
      button.dataset.step = step;
      button.setAttribute("aria-label", fill(name, { item: nameOf(item) }));
      button.addEventListener("click", () => move(item, step, button));
      button.addEventListener("keydown", (event) => {
        const arrow = { ArrowUp: -1, ArrowDown: 1 }[event.key];
        if (!arrow) return;
        event.preventDefault();
        move(item, arrow, item.querySelector(`[data-step="${arrow}"]`));
      });
      moves.append(button);
    }
    item.append(moves);
  });
  list.classList.add("is-answerable");
  list.after(status);
  const check = checkButton(status, strings, finish);
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

  function refresh() {
    const items = Array.from(list.children);
    items.forEach((item, place) => item.querySelectorAll(".move").forEach((button) => {
      button.disabled = done || place + Number(button.dataset.step) < 0 || place + Number(button.dataset.step) >= items.length;
    }));
  }

  function finish() {
    if (done) return;
    done = true;
    const items = Array.from(list.children);
    const given = items.map((item) => Number(item.dataset.position));
    const wrong = outOfPlace(given);
    items.forEach((item, place) => {
      const right = !wrong.includes(place);
      item.classList.add(right ? "is-chosen-right" : "is-chosen-wrong");
      item.append(markLabel(right ? words.textIn : fill(words.textOut, { number: format(given[place] + 1) })));
    });
    refresh();
    check.disabled = true;
    status.textContent = "";
    const correct = judge(rule, given);
    answer({ correct, given }, correct ? words.textRight : fill(words.textWrong, { items: listed(wrong.map((place) => nameOf(items[place]))) }));
  }

  return {
    key: () => false,
    reset() {
      done = false;
      list.append(...shuffled);
      shuffled.forEach((item) => item.classList.remove("is-chosen-right", "is-chosen-wrong"));
      list.querySelectorAll("[data-mark]").forEach((label) => label.remove());
      check.disabled = false;
      status.textContent = "";
      refresh();
    },
  };
}
