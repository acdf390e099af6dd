/* Studysite: the header's menus and search control (study features: static/js/). Plain JavaScript; every page works without it. */
"use strict";

/* The header's search opens from a compact control on a phone: its field takes the focus.
   Focused, it loads js/header-search.js. */
function headerSearch(details) {
  details.addEventListener("toggle", () => {
    if (details.open) details.querySelector("input").focus();
  });
  const form = details.querySelector("form[data-module]");
  if (form) form.addEventListener("focusin", () => import(new URL(form.dataset.module, document.baseURI).href).then((m) => m.start(form)).catch(() => {}), { once: true });
}

/* Header menus are <details>: Escape closes an open one and gives focus back to its summary;
   opening one closes the other; a click outside closes them. */
function disclosures(all) {
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    all.forEach((details) => {
      if (!details.open) return;
      details.open = false;
      details.querySelector("summary").focus();
    });
  });
  all.forEach((details) => details.addEventListener("toggle", () => {
    if (details.open) all.forEach((other) => { if (other !== details) other.open = false; });
  }));
  document.addEventListener("click", (event) => {
    all.forEach((details) => { if (details.open && !details.contains(event.target)) details.open = false; });
  });
}

disclosures(Array.from(document.querySelectorAll("[data-disclosure]")));
document.querySelectorAll("[data-header-search]").forEach(headerSearch);
