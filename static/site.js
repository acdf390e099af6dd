/* Studysite: practice mode and search. Plain JavaScript; every page works without it. */
"use strict";

function practice(root) {
  const items = Array.from(root.querySelectorAll(".practice-item"));
  const result = root.querySelector(".practice-result");
  let current = 0;
  let correct = 0;

  function show(index) {
    items.forEach((item, i) => { item.hidden = i !== index; });
    result.hidden = true;
    const item = items[index];
    item.querySelector(".practice-controls").hidden = false;
    item.querySelector(".reveal").hidden = true;
  }

  function reset() {
    current = 0;
    correct = 0;
    items.forEach((item) => {
      item.querySelectorAll("input").forEach((input) => { input.checked = false; input.disabled = false; });
      item.querySelectorAll(".choice").forEach((choice) => choice.classList.remove("is-correct", "is-wrong"));
      const feedback = item.querySelector(".feedback");
      feedback.textContent = "";
      feedback.className = "feedback";
      item.querySelector(".check").disabled = true;
      item.querySelector(".check").hidden = false;
      item.querySelector(".next").hidden = true;
      item.querySelector(".reveal").open = false;
    });
    show(0);
  }

  function check(item) {
    const chosen = item.querySelector("input:checked");
    if (!chosen) return;
    const answer = Number(item.dataset.answer);
    const inputs = Array.from(item.querySelectorAll("input"));
    const right = Number(chosen.value) === answer;
    if (right) correct += 1;
    inputs.forEach((input) => { input.disabled = true; });
    inputs[answer].closest(".choice").classList.add("is-correct");
    if (!right) chosen.closest(".choice").classList.add("is-wrong");
    const feedback = item.querySelector(".feedback");
    const letter = String.fromCharCode(65 + answer);
    feedback.textContent = right ? root.dataset.correct : root.dataset.wrong.replace("{letter}", letter);
    feedback.className = "feedback " + (right ? "correct" : "wrong");
    const reveal = item.querySelector(".reveal");
    reveal.hidden = false;
    reveal.open = true;
    item.querySelector(".check").hidden = true;
    const next = item.querySelector(".next");
    next.hidden = false;
    next.focus();
  }

  function next() {
    current += 1;
    if (current < items.length) {
      show(current);
      items[current].querySelector("h2").focus();
      return;
    }
    items.forEach((item) => { item.hidden = true; });
    result.hidden = false;
    result.querySelector(".score").textContent = root.dataset.score.replace("{correct}", String(correct));
    result.querySelector("h2").focus();
  }

  items.forEach((item) => {
    const checkButton = item.querySelector(".check");
    item.addEventListener("change", () => { checkButton.disabled = !item.querySelector("input:checked"); });
    checkButton.addEventListener("click", () => check(item));
    item.querySelector(".next").addEventListener("click", next);
  });
  result.querySelector(".restart").addEventListener("click", () => {
    reset();
    items[0].querySelector("h2").focus();
  });
  root.classList.add("js");
  reset();
}

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
document.querySelectorAll("[data-practice]").forEach(practice);
document.querySelectorAll("form[data-search]").forEach(search);
