/* Studysite's service worker: the site, readable offline.

   Pages (and everything else but fingerprinted assets) come from the network while there is
   one, and are kept as they arrive; offline, the kept copy is shown, or, for a page never
   kept, the localized offline page. Fingerprinted assets never change: kept ones are used
   as they are. VERSION is a digest of every page of the build: a new build makes a new
   worker, which keeps the files whose digest did not change, fetches the changed pages of
   a language that was saved for offline reading, and deletes the old caches.

   What was kept because it was visited is bounded: each such file carries the time it was
   fetched (STAMP), is deleted visitedDays after it, and beyond visitedLimit of them the
   oldest go first. What a reader saved with "make available offline" (every file of a
   saved language's list, the list itself), the offline pages and the assets are never
   evicted. A language's search files are kept only when the language is saved.

   Each kept file also says how it came (HOW): "saved" when it was fetched only to save a
   language (the downloads page asks with the SAVING header), else "visited". The downloads
   page asks what is saved of a language ("saved": whether it is, and the bytes kept of its
   list) and may remove it ("forget"): its list goes, and with it the files that came only
   to save it and no other saved language lists; what was visited is kept by the visited
   pages' rules, as it would have been. */
"use strict";

const CONFIG = {{ config|tojson }};
const SCOPE = new URL("./", self.location.href).href;
const PREFIX = "studysite " + SCOPE + " ";
const CACHE = PREFIX + CONFIG.version;
const STAMP = "x-studysite-kept"; /* when a kept file was fetched, in ms since 1970 */
const HOW = "x-studysite-how"; /* "saved" (fetched only to save a language) or "visited" */
const SIZE = "x-studysite-size"; /* the kept body's length in bytes */
const SAVING = "x-studysite-saving"; /* the request header of the downloads page's fetches */
const DAY = 24 * 60 * 60 * 1000;
let installing = false; /* while a new worker fills its cache, nothing is trimmed */
let savedMemo = null; /* savedPaths(), until a language's list is kept again */

function relative(url) {
  const bare = url.split("#")[0].split("?")[0];
  return bare.startsWith(SCOPE) ? bare.slice(SCOPE.length) : null;
}

function languageOf(path) {
  const first = path.split("/")[0];
  return CONFIG.languages.includes(first) ? first : null;
}

function keepable(response) {
  return response.ok && response.status === 200 && response.type === "basic" && !response.redirected;
}

async function digestOf(response) {
  const hash = await crypto.subtle.digest("SHA-256", await response.arrayBuffer());
  return Array.from(new Uint8Array(hash), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function listed(list) {
  return [...list.pages, ...list.assets, ...(list.media || []), ...(list.search || [])];
}

async function fetchList(language) {
  const response = await fetch(SCOPE + CONFIG.lists[language], { cache: "no-cache" });
  if (!response.ok) throw new Error("no page list for " + language);
  const list = await response.clone().json();
  return { response, digests: new Map(listed(list)) };
}

/* A copy of a response that says when it was kept, how it came and its size. */
async function stamped(response, how = "visited") {
  const headers = new Headers(response.headers);
  const body = await response.blob();
  headers.set(STAMP, String(Date.now()));
  headers.set(HOW, how);
  headers.set(SIZE, String(body.size));
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/* How a file fetched now is kept: saved only while nothing but saving ever brought it. */
async function howKept(cache, key, saving) {
  if (!saving) return "visited";
  const kept = await cache.match(key);
  return !kept || kept.headers.get(HOW) === "saved" ? "saved" : "visited";
}

async function keep(cache, key, response, saving = false) {
  await cache.put(key, await stamped(response, await howKept(cache, key, saving)));
  if (CONFIG.languages.some((language) => relative(String(key.url || key)) === CONFIG.lists[language])) savedMemo = null;
  if (!installing) await trimSoon(cache); /* the new cache is trimmed once it is complete, on activation */
}

/* The paths a reader saved: every file of each saved language's list (kept in the cache), made once per change. */
function savedPaths(cache) {
  if (!savedMemo) {
    savedMemo = (async () => {
      const paths = new Set();
      for (const language of CONFIG.languages) {
        const list = await cache.match(SCOPE + CONFIG.lists[language]);
        if (!list) continue;
        paths.add(CONFIG.lists[language]);
        for (const [path] of listed(await list.json())) paths.add(path);
      }
      return paths;
    })();
  }
  return savedMemo;
}

function lasting(path, paths) {
  return paths.has(path) || path.startsWith(CONFIG.assets) || CONFIG.precache.includes(path);
}

function expired(response) {
  return Date.now() - Number(response.headers.get(STAMP) || 0) > CONFIG.visitedDays * DAY;
}

/* Delete the visited files past their time, then the oldest beyond the limit. */
async function trim(cache) {
  const paths = await savedPaths(cache);
  const visited = [];
  for (const request of await cache.keys()) {
    const path = relative(request.url);
    if (path === null || lasting(path, paths)) continue;
    const response = await cache.match(request);
    if (!response || expired(response)) await cache.delete(request);
    else visited.push([Number(response.headers.get(STAMP)), request]);
  }
  visited.sort((a, b) => a[0] - b[0]);
  for (const [, request] of visited.slice(0, Math.max(0, visited.length - CONFIG.visitedLimit))) await cache.delete(request);
}

let trimming = null;
let again = false;
function trimSoon(cache) {
  if (trimming) {
    again = true;
    return trimming;
  }
  trimming = (async () => {
    do {
      again = false;
      await trim(cache);
    } while (again);
  })().finally(() => {
    trimming = null;
  });
  return trimming;
}

async function storeEach(cache, paths, saving = false) {
  const queue = [...paths];
  async function next() {
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      try {
        const response = await fetch(SCOPE + path, { cache: "no-cache" });
        if (keepable(response)) await keep(cache, SCOPE + path, response, saving);
      } catch (error) {
        /* offline again: the page is fetched when next visited */
      }
    }
  }
  await Promise.all([next(), next(), next(), next()]);
}

/* Keep what an old cache holds and this build did not change; refetch a saved language's changes. */
async function carryOver(cache, oldName) {
  const old = await caches.open(oldName);
  const requests = await old.keys();
  const languages = new Set(requests.map((request) => languageOf(relative(request.url) || "")).filter(Boolean));
  for (const language of languages) {
    const { response, digests } = await fetchList(language);
    const saved = requests.some((request) => relative(request.url) === CONFIG.lists[language]);
    for (const request of requests) {
      const path = relative(request.url);
      const digest = digests.get(path);
      const kept = digest && (await old.match(request));
      if (kept && (path.startsWith(CONFIG.assets) || (await digestOf(kept.clone())).startsWith(digest))) {
        await cache.put(request, kept.headers.has(STAMP) ? kept : await stamped(kept));
      }
    }
    if (saved) {
      await cache.put(SCOPE + CONFIG.lists[language], await stamped(response, "saved"));
      const present = new Set((await cache.keys()).map((request) => relative(request.url)));
      await storeEach(cache, [...digests.keys()].filter((path) => !present.has(path)), true);
    }
  }
}

self.addEventListener("install", (event) => {
  installing = true;
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(CONFIG.precache.map((path) => SCOPE + path));
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await carryOver(cache, name);
    }
    installing = false;
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  savedMemo = null;
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
    await trimSoon(await caches.open(CACHE));
  })());
});

function saving(request) {
  return request.headers.has(SAVING);
}

async function fromCacheFirst(event) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(event.request);
  if (kept) return kept;
  const response = await fetch(event.request);
  if (keepable(response)) event.waitUntil(keep(cache, event.request, response.clone(), saving(event.request)));
  return response;
}

/* Whether a file fetched from the network is kept: any but a search file of a language not saved. */
async function worthKeeping(cache, path) {
  return !path.startsWith(CONFIG.search) || (await savedPaths(cache)).has(path);
}

/* The offline page, shown in place of a page never kept. It links relatively to its own
   place (<lang>/offline/), which is not where it is shown: its links are made absolute paths
   under the scope the worker runs at, so a site served under any path keeps its styles. */
async function offlinePage(cache, language) {
  const page = await cache.match(SCOPE + CONFIG.offline[language]);
  if (!page) return null;
  const up = "../".repeat(CONFIG.offline[language].split("/").length - 1);
  const html = (await page.text()).replaceAll('="' + up, '="' + new URL(SCOPE).pathname);
  return new Response(html, { status: 200, headers: page.headers });
}

async function fromNetworkFirst(event, path) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(event.request);
    if (keepable(response) && (await worthKeeping(cache, path))) event.waitUntil(keep(cache, SCOPE + path, response.clone(), saving(event.request)));
    return response;
  } catch (error) {
    const kept = await cache.match(SCOPE + path);
    if (kept && (lasting(path, await savedPaths(cache)) || !expired(kept))) return kept;
    if (event.request.mode === "navigate") {
      const page = await offlinePage(cache, languageOf(path) || CONFIG.languages[0]);
      if (page) return page;
    }
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const path = relative(request.url);
  if (request.method !== "GET" || path === null || CONFIG.passThrough.some((end) => path.endsWith(end))) return;
  if (request.headers.get("accept") === "text/event-stream") return;
  event.respondWith(path.startsWith(CONFIG.assets) ? fromCacheFirst(event) : fromNetworkFirst(event, path));
});

/* What is saved of a language: whether it is (its list is kept), and the bytes kept of the
   files its list names, the list included. */
async function savedState(cache, language) {
  const listPath = CONFIG.lists[language];
  const list = await cache.match(SCOPE + listPath);
  if (!list) return { saved: false, bytes: 0 };
  let bytes = 0;
  for (const path of [listPath, ...listed(await list.clone().json()).map(([path]) => path)]) {
    const kept = await cache.match(SCOPE + path);
    if (kept) bytes += Number(kept.headers.get(SIZE)) || (await kept.blob()).size;
  }
  return { saved: true, bytes };
}

/* Remove a saved language: its list, and the files that came only to save it and that no
   other saved language lists (nor the offline pages and their assets, kept for every page). */
async function forget(cache, language) {
  const listPath = CONFIG.lists[language];
  const list = await cache.match(SCOPE + listPath);
  if (!list) return;
  const paths = listed(await list.json()).map(([path]) => path);
  await cache.delete(SCOPE + listPath);
  savedMemo = null;
  const others = await savedPaths(cache);
  for (const path of paths) {
    if (others.has(path) || CONFIG.precache.includes(path)) continue;
    const kept = await cache.match(SCOPE + path);
    if (kept && kept.headers.get(HOW) === "saved") await cache.delete(SCOPE + path);
  }
}

/* The downloads page asks what is saved of a language, and removes it; it hears back on
   the port it sent. */
function answerAboutSaving(event, data) {
  const port = event.ports && event.ports[0];
  if (!port || !CONFIG.languages.includes(data.language)) return;
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    if (data.type === "forget") await forget(cache, data.language);
    port.postMessage(await savedState(cache, data.language));
  })());
}

/* A page that loaded before the worker controlled it asks to keep itself and its files. */
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "saved" || data.type === "forget") return answerAboutSaving(event, data);
  if (data.type !== "keep" || !Array.isArray(data.urls)) return;
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    const present = new Set((await cache.keys()).map((request) => relative(request.url)));
    const paths = data.urls.map((url) => relative(String(url))).filter((path) => path !== null && !present.has(path));
    const wanted = [];
    for (const path of paths) {
      if (!CONFIG.passThrough.some((end) => path.endsWith(end)) && (await worthKeeping(cache, path))) wanted.push(path);
    }
    await storeEach(cache, wanted);
  })());
});
