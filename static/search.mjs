/* Search: the search page's results as the reader types (loaded by search.html alone). */

/* The search page: results as the reader types, and for the ?q= of a search sent from the
   header or the form without JavaScript. Only the latest query may show its results: each
   run takes a ticket and gives up once a later one was taken, whatever order Pagefind's
   answers come back in. When Pagefind's files cannot be fetched, the page says why in its
   own words: no connection, or no index here. */
const SEARCH_DELAY = 250; /* ms of quiet typing before a search runs */

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function search(form) {
  const input = form.querySelector("input[type=search]");
  const status = document.querySelector(".search-status");
  const list = document.querySelector(".search-results");
  const indexUrl = new URL(form.dataset.search, document.baseURI).href;
  let loading = null; /* Pagefind, imported and set up once */
  let latest = 0; /* the ticket of the latest query */
  let shown = null; /* the query whose results are on the page */

  function load() {
    if (!loading) {
      loading = import(indexUrl).then(async (engine) => {
        await engine.options({ baseUrl: new URL(form.dataset.base, document.baseURI).pathname });
        return engine;
      });
      loading.catch(() => (loading = null)); /* a failed import is tried again by the next query */
    }
    return loading;
  }

  /* Why search failed: offline (no answer at all), or this copy has no index (an answer, not the file). */
  async function failure() {
    if (navigator.onLine === false) return form.dataset.offline;
    try {
      const response = await fetch(indexUrl, { method: "HEAD", cache: "no-store" });
      return response.ok ? form.dataset.offline : form.dataset.unavailable;
    } catch (error) {
      return form.dataset.offline;
    }
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

  async function run(query, delay) {
    const ticket = ++latest;
    const current = () => ticket === latest;
    if (query.trim() === shown) return settled();
    if (!query.trim()) {
      shown = "";
      list.replaceChildren();
      status.textContent = "";
      return settled();
    }
    list.setAttribute("aria-busy", "true"); /* until the latest query's results are shown */
    try {
      const engine = await load();
      engine.preload(query).catch(() => {}); /* the search below reports a failure */
      await pause(delay);
      if (!current()) return;
      const found = await engine.search(query);
      const data = await Promise.all(found.results.slice(0, 20).map((result) => result.data()));
      if (!current()) return;
      shown = query.trim();
      status.textContent = data.length ? form.dataset.results.replace("{query}", query) : form.dataset.none;
      list.replaceChildren(...data.map(entry));
      document.dispatchEvent(new Event("studysite:links")); /* main.js marks the questions' links with their state */
      settled();
    } catch (error) {
      if (!current()) return;
      shown = null;
      list.replaceChildren();
      status.textContent = await failure();
      if (current()) settled();
    }
  }

  function settled() {
    list.setAttribute("aria-busy", "false");
  }

  function remember(query) {
    const url = new URL(location.href);
    if (query) url.searchParams.set("q", query);
    else url.searchParams.delete("q");
    history.replaceState(null, "", url);
  }

  input.addEventListener("input", () => {
    remember(input.value);
    run(input.value, SEARCH_DELAY);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    remember(input.value);
    run(input.value, 0);
  });
  const initial = new URLSearchParams(location.search).get("q");
  if (initial) {
    input.value = initial;
    run(initial, 0);
  }
}

document.querySelectorAll("form[data-search]").forEach(search);
