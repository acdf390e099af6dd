/* Studysite: the header's menus and search control (its searching as you type: js/header-search.js; study features: static/js/). Plain JavaScript; every page works without it. */
"use strict";

/* The header's search opens from a compact control on a phone: its field takes the focus.
   Once the field is first focused, header-search.js makes it search as the reader types. */
function headerSearch(details) {
  details.addEventListener("toggle", () => {
    if (details.open) details.querySelector("input").focus();
  });
  const form = details.querySelector("form[data-module]");
  if (!form) return;
  const load = () => {
    form.removeEventListener("focusin", load);
    import(new URL(form.dataset.module, document.baseURI).href).then((module) => module.start(form)).catch(() => {}); /* the form still sends to the search page */
  };
  form.addEventListener("focusin", load);
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
