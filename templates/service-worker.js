/* Studysite's service worker: the site, readable offline.

   Pages (and everything else but fingerprinted assets) come from the network while there is
   one, and are kept as they arrive; offline, the kept copy is shown, or, for a page never
   kept, the localized offline page. Fingerprinted assets never change: kept ones are used
   as they are. VERSION is a digest of every page of the build: a new build makes a new
   worker, which keeps the files whose digest did not change, fetches the changed pages of
   a language that was saved for offline reading, and deletes the old caches. */
"use strict";

const CONFIG = {{ config|tojson }};
const SCOPE = new URL("./", self.location.href).href;
const PREFIX = "studysite " + SCOPE + " ";
const CACHE = PREFIX + CONFIG.version;

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

async function fetchList(language) {
  const response = await fetch(SCOPE + CONFIG.lists[language], { cache: "no-cache" });
  if (!response.ok) throw new Error("no page list for " + language);
  const list = await response.clone().json();
  return { response, digests: new Map([...list.pages, ...list.assets]) };
}

async function storeEach(cache, paths) {
  const queue = [...paths];
  async function next() {
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      try {
        const response = await fetch(SCOPE + path, { cache: "no-cache" });
        if (keepable(response)) await cache.put(SCOPE + path, response);
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
        await cache.put(request, kept);
      }
    }
    if (saved) {
      await cache.put(SCOPE + CONFIG.lists[language], response);
      const present = new Set((await cache.keys()).map((request) => relative(request.url)));
      await storeEach(cache, [...digests.keys()].filter((path) => !present.has(path)));
    }
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(CONFIG.precache.map((path) => SCOPE + path));
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await carryOver(cache, name);
    }
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

async function fromCacheFirst(event) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(event.request);
  if (kept) return kept;
  const response = await fetch(event.request);
  if (keepable(response)) event.waitUntil(cache.put(event.request, response.clone()));
  return response;
}

async function fromNetworkFirst(event, path) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(event.request);
    if (keepable(response)) event.waitUntil(cache.put(SCOPE + path, response.clone()));
    return response;
  } catch (error) {
    const kept = await cache.match(SCOPE + path);
    if (kept) return kept;
    if (event.request.mode === "navigate") {
      const language = languageOf(path) || CONFIG.languages[0];
      const page = await cache.match(SCOPE + CONFIG.offline[language]);
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
    await storeEach(cache, paths.filter((path) => !CONFIG.passThrough.some((end) => path.endsWith(end))));
  })());
});
