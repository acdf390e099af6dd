/* Search as the reader types, with Pagefind: what the search page (search-page.js) and the
   header's field (header-search.js) share. A query runs once the typing pauses; only the
   latest query may show its results: each run takes a ticket and gives up once a later one
   was taken, whatever order Pagefind's answers come back in. The list of results says it is
   busy (aria-busy) until the latest query's results are in. When Pagefind's files cannot be
   fetched, the reason is given in the page's own words, where it has them: no connection, or
   no index here. Words and paths come from the form's data- attributes (search.html,
   templates/parts/search.html); a result's kind, in words, from its page's
   data-pagefind-meta. */

export const SEARCH_DELAY = 250; /* ms of quiet typing before a search runs */

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const SITE_ROOT = new URL("../../", import.meta.url).pathname; /* this module is <root>assets/js.<hash>/search.js */

/* The results' looks (search.css), loaded with this module: no page pays for them before it searches. */
function loadStyles() {
  const href = new URL("./search.css", import.meta.url).href;
  if (document.querySelector(`link[href="${CSS.escape(href)}"]`)) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  document.head.append(link);
}

/* The results that have a word of the query, without those that only stand in for one: an
   index in parts (output/search.py) merges what each part finds, and a part that lacks a
   word matches, as Pagefind does for a word no page has, the longest beginning of it that
   the part has ("b" for "bandbreedte"), far weaker. A result stands in when each word its
   excerpt marks begins a word of the query and is shorter than two thirds of it (a word
   stemmed, "bandbreedte" for "bandbreedtes", is not). Where every result stands in, the
   query's word is in no page, and they are all kept, as one index would give them. */
export function withoutStandIns(results, query) {
  const words = query.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  const standsIn = (result) => {
    const marked = [...String(result.excerpt || "").matchAll(/<mark>(.*?)<\/mark>/g)].map((match) => match[1].toLocaleLowerCase());
    return marked.length > 0 && marked.every((part) => words.some((word) => word.startsWith(part) && part.length * 3 < word.length * 2));
  };
  const kept = results.filter((result) => !standsIn(result));
  return kept.length ? kept : results;
}

/* A search over the form's index that fills `list` through show(results, query), clear()
   and fail(words); limit: how many results it shows at most. */
export function makeSearch(form, list, { limit, show, clear, fail }) {
  loadStyles();
  const indexUrl = new URL(form.dataset.search, document.baseURI).href;
  let loading = null; /* Pagefind, imported and set up once, and whether it merged parts */
  let latest = 0; /* the ticket of the latest query */
  let shown = null; /* the query whose results are shown */

  /* The folders of the index's other parts: a language of many pages is indexed in parts,
     which parts.json, beside pagefind.js, names (output/search.py); asked for anew, as
     Pagefind asks for its entry file, so that a new deploy's parts are the ones merged. An
     index without the file (an older build's) is one part. */
  async function otherParts() {
    const listing = new URL("parts.json", indexUrl);
    const response = await fetch(listing, { cache: "no-cache" });
    if (!response.ok) return [];
    const parts = await response.json();
    return Array.isArray(parts) ? parts.map((part) => new URL(part, listing).pathname) : [];
  }

  function load() {
    if (!loading) {
      loading = Promise.all([import(indexUrl), otherParts()]).then(async ([engine, parts]) => {
        await engine.options({ baseUrl: SITE_ROOT });
        try {
          await Promise.all(parts.map((part) => engine.mergeIndex(part, { baseUrl: SITE_ROOT }))); /* merged in the order named */
        } catch (error) {
          await engine.destroy(); /* no index with a part missing is kept: the next query starts anew */
          throw error;
        }
        return { engine, merged: parts.length > 0 };
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

  function settled() {
    list.setAttribute("aria-busy", "false");
  }

  async function run(query, delay) {
    const ticket = ++latest;
    const current = () => ticket === latest;
    if (query.trim() === shown) return settled();
    if (!query.trim()) {
      shown = "";
      clear();
      return settled();
    }
    list.setAttribute("aria-busy", "true"); /* until the latest query's results are shown */
    try {
      const { engine, merged } = await load();
      engine.preload(query).catch(() => {}); /* the search below reports a failure */
      await pause(delay);
      if (!current()) return;
      const found = await engine.search(query);
      const data = await Promise.all(found.results.slice(0, limit).map((result) => result.data()));
      if (!current()) return;
      shown = query.trim();
      show(merged ? withoutStandIns(data, query) : data, query);
      settled();
    } catch (error) {
      if (!current()) return;
      shown = null;
      fail(await failure());
      if (current()) settled();
    }
  }

  return {
    run,
    /* Start loading Pagefind before the first query (the reader is about to type). */
    warm: () => load().catch(() => {}),
    /* Forget what is shown, so that the same query runs again (after the list was emptied). */
    forget: () => { shown = null; },
  };
}

/* What a results line says: "Results for “gpu”" or "No results.". */
export function statusText(form, data, query) {
  return data.length ? form.dataset.results.replace("{query}", query) : form.dataset.none;
}

/* A result: a link to the page, its title and its kind in words (question, term, comparison,
   topic, in the page's language: its data-pagefind-meta), and the passage that matched when
   asked for. */
export function resultItem(data, withExcerpt) {
  const item = document.createElement("li");
  const link = document.createElement("a");
  const title = document.createElement("span");
  link.href = data.url;
  title.className = "result-title";
  title.textContent = data.meta.title || data.url;
  link.append(title);
  const kind = data.meta.kind;
  if (kind) {
    const label = document.createElement("span");
    label.className = "result-kind";
    const gap = document.createElement("span");
    gap.className = "visually-hidden";
    gap.textContent = ", "; /* heard between the title and the kind */
    label.append(gap, kind);
    link.append(" ", label);
  }
  item.append(link);
  if (withExcerpt) {
    const excerpt = document.createElement("p");
    excerpt.innerHTML = data.excerpt; /* Pagefind escapes the page text and adds only <mark> */
    item.append(excerpt);
  }
  return item;
}
