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
   evicted. A language's search files are kept only when the language is saved. */
"use strict";

const CONFIG = {{ config|tojson }};
const SCOPE = new URL("./", self.location.href).href;
const PREFIX = "studysite " + SCOPE + " ";
const CACHE = PREFIX + CONFIG.version;
const STAMP = "x-studysite-kept"; /* when a kept file was fetched, in ms since 1970 */
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

/* A copy of a response that says when it was kept. */
async function stamped(response) {
  const headers = new Headers(response.headers);
  headers.set(STAMP, String(Date.now()));
  return new Response(await response.blob(), { status: response.status, statusText: response.statusText, headers });
}

async function keep(cache, key, response) {
  await cache.put(key, await stamped(response));
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

async function storeEach(cache, paths) {
  const queue = [...paths];
  async function next() {
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      try {
        const response = await fetch(SCOPE + path, { cache: "no-cache" });
        if (keepable(response)) await keep(cache, SCOPE + path, response);
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
      await cache.put(SCOPE + CONFIG.lists[language], await stamped(response));
      const present = new Set((await cache.keys()).map((request) => relative(request.url)));
      await storeEach(cache, [...digests.keys()].filter((path) => !present.has(path)));
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

async function fromCacheFirst(event) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(event.request);
  if (kept) return kept;
  const response = await fetch(event.request);
  if (keepable(response)) event.waitUntil(keep(cache, event.request, response.clone()));
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
    if (keepable(response) && (await worthKeeping(cache, path))) event.waitUntil(keep(cache, SCOPE + path, response.clone()));
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

/* A page that loaded before the worker controlled it asks to keep itself and its files. */
self.addEventListener("message", (event) => {
  const data = event.data || {};
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
