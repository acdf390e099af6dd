/* The search page (loaded by search.html alone): results as the reader types (search.js),
   and for the ?q= of a search sent from the header or by the form without JavaScript. The
   query is kept in the address, so that Back and a reload show the same results. */

import { SEARCH_DELAY, makeSearch, resultItem, statusText } from "./search.js";

function start(form) {
  const input = form.querySelector("input[type=search]");
  const status = document.querySelector(".search-status");
  const list = document.querySelector(".search-results");
  const search = makeSearch(form, list, {
    limit: 20,
    show(data, query) {
      status.textContent = statusText(form, data, query);
      list.replaceChildren(...data.map((result) => resultItem(result, true)));
      document.dispatchEvent(new Event("studysite:links")); /* main.js marks the questions' links with their state */
    },
    clear() {
      list.replaceChildren();
      status.textContent = "";
    },
    fail(words) {
      list.replaceChildren();
      status.textContent = words;
    },
  });

  function remember(query) {
    const url = new URL(location.href);
    if (query) url.searchParams.set("q", query);
    else url.searchParams.delete("q");
    history.replaceState(null, "", url);
  }

  input.addEventListener("input", () => {
    remember(input.value);
    search.run(input.value, SEARCH_DELAY);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    remember(input.value);
    search.run(input.value, 0);
  });
  const initial = new URLSearchParams(location.search).get("q");
  if (initial) {
    input.value = initial;
    search.run(initial, 0);
  }
}

document.querySelectorAll("form.search-form[data-search]").forEach(start);
