/* The header's search field, searching as the reader types (search.js, as the search page
   does): loaded by site.js once the field is first focused. Its results are a plain list of
   links under the field, each saying its kind in words; a line above them says how many
   were found, to screen readers too (a live region). Keys: Down goes from the field to the
   first result and on through them, Up goes back (from the first, to the field), Enter
   opens the result in focus (a link), Escape closes the list and gives the focus back to the
   field. Enter in the field still sends the form to the search page, as it does without
   JavaScript. The list closes when the focus leaves the form. */

import { SEARCH_DELAY, makeSearch, resultItem, statusText } from "./search.js";

const HEADER_RESULTS = 8;

/* Under the field: a line that says what was found (a live region, there before it says
   anything) and the list of results, closed. */
function makePanel(form) {
  const panel = document.createElement("div");
  const status = document.createElement("p");
  const list = document.createElement("ol");
  panel.className = "header-results visually-hidden";
  status.className = "header-status";
  status.setAttribute("role", "status");
  status.dataset.headerStatus = "";
  list.className = "header-list";
  list.dataset.headerList = "";
  list.hidden = true;
  panel.append(status, list);
  form.append(panel);
  return { panel, status, list };
}

export function start(form) {
  const input = form.querySelector("input[type=search]");
  const { panel, status, list } = makePanel(form);
  const links = () => Array.from(list.querySelectorAll("a"));

  const isOpen = () => !panel.classList.contains("visually-hidden");
  function open(shown) {
    panel.classList.toggle("visually-hidden", !shown); /* closed, its line is still heard */
    list.hidden = !shown; /* its links are no Tab stops while closed */
  }

  const search = makeSearch(form, list, {
    limit: HEADER_RESULTS,
    show(data, query) {
      status.textContent = statusText(form, data, query);
      list.replaceChildren(...data.map((result) => resultItem(result, false)));
      open(form.contains(document.activeElement));
    },
    clear() {
      list.replaceChildren();
      status.textContent = "";
      open(false);
    },
    fail(words) {
      list.replaceChildren();
      status.textContent = words || ""; /* the search page says why; this field has no words for it */
      open(Boolean(words) && form.contains(document.activeElement));
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
    } else if (event.key === "Escape" && isOpen()) {
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
