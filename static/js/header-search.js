/* The header's search field, searching as the reader types (search.js, as the search page
   does): loaded by site.js once the field is first focused. Its results are a plain list of
   links under the field, each saying its kind in words; a line above them says how many
   were found, to screen readers too (a live region). Keys: Down goes from the field to the
   first result and on through them, Up goes back (from the first, to the field), Enter
   opens the result in focus (a link), Escape closes the list and gives the focus back to the
   field. Enter in the field still sends the form to the search page, as it does without
   JavaScript. The list closes when the focus leaves the form. */

import { SEARCH_DELAY, kindWords, makeSearch, resultItem, statusText } from "./search.js";

const HEADER_RESULTS = 8;

export function start(form) {
  const input = form.querySelector("input[type=search]");
  const panel = form.querySelector("[data-header-results]");
  const status = panel.querySelector("[data-header-status]");
  const list = panel.querySelector("[data-header-list]");
  const kinds = kindWords(form);
  const links = () => Array.from(list.querySelectorAll("a"));

  function open(shown) {
    panel.classList.toggle("is-open", shown);
    list.hidden = !shown; /* its links are no Tab stops while closed */
  }

  const search = makeSearch(form, list, {
    limit: HEADER_RESULTS,
    show(data, query) {
      status.textContent = statusText(form, data, query);
      list.replaceChildren(...data.map((result) => resultItem(result, kinds, false)));
      open(form.contains(document.activeElement));
    },
    clear() {
      list.replaceChildren();
      status.textContent = "";
      open(false);
    },
    fail(words) {
      list.replaceChildren();
      status.textContent = words;
      open(form.contains(document.activeElement));
    },
  });

  function move(step) {
    const all = links();
    const at = all.indexOf(document.activeElement);
    if (at === -1 && step > 0 && all.length) {
      open(true);
      all[0].focus();
    } else if (at !== -1) {
      const next = at + step;
      if (next < 0) input.focus();
      else if (next < all.length) all[next].focus();
    }
  }

  form.addEventListener("keydown", (event) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (event.target !== input && !list.contains(event.target)) return;
      if (event.target === input && event.key === "ArrowUp") return;
      event.preventDefault();
      move(event.key === "ArrowDown" ? 1 : -1);
    } else if (event.key === "Escape" && panel.classList.contains("is-open")) {
      event.stopPropagation(); /* the list closes; the header's menus (site.js) stay as they are */
      input.focus();
      open(false);
    }
  });
  input.addEventListener("input", () => search.run(input.value, SEARCH_DELAY));
  input.addEventListener("focus", () => {
    if (input.value.trim() && (list.children.length || status.textContent)) open(true);
  });
  form.addEventListener("focusout", (event) => {
    if (!form.contains(event.relatedTarget)) open(false);
  });
  panel.addEventListener("mousedown", (event) => event.preventDefault()); /* a click on a result keeps the focus in the form until it opens the link (Safari focuses no link it clicks) */
  search.warm();
  if (input.value.trim()) search.run(input.value, 0); /* typed before this module was loaded */
}
