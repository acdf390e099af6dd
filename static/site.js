/* Studysite: header menus, search and live reload (study features: static/js/). Plain JavaScript; every page works without it. */
"use strict";

function search(form) {
  const input = form.querySelector("input[type=search]");
  const status = document.querySelector(".search-status");
  const list = document.querySelector(".search-results");
  let pagefind = null;

  async function load() {
    if (!pagefind) {
      pagefind = await import(new URL(form.dataset.search, document.baseURI).href);
      await pagefind.options({ baseUrl: new URL(form.dataset.base, document.baseURI).pathname });
    }
    return pagefind;
  }

  function entry(data) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = data.url;
    link.textContent = data.meta.title || data.url;
    const excerpt = document.createElement("p");
    excerpt.innerHTML = data.excerpt; /* Pagefind escapes the page text and adds only <mark> */
    item.append(link, excerpt);
    return item;
  }

  async function run(query) {
    list.replaceChildren();
    if (!query.trim()) { status.textContent = ""; return; }
    let engine;
    try { engine = await load(); } catch (error) { status.textContent = form.dataset.unavailable; return; }
    const found = await engine.search(query);
    const data = await Promise.all(found.results.slice(0, 20).map((r) => r.data()));
    status.textContent = data.length ? form.dataset.results.replace("{query}", query) : form.dataset.none;
    list.replaceChildren(...data.map(entry));
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const query = input.value;
    history.replaceState(null, "", "?q=" + encodeURIComponent(query));
    run(query);
  });
  const initial = new URLSearchParams(location.search).get("q");
  if (initial) { input.value = initial; run(initial); }
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
document.querySelectorAll("form[data-search]").forEach(search);
