/* Offline: registers the site's service worker and, on the downloads page, saves a whole
   language, its search index included, for reading and searching without a connection.

   The worker is registered once the page has loaded, so a first visit costs nothing else;
   on a later visit the page asks whether the site was built again since.
   A page that loaded before the worker controlled it asks the worker to keep it and its
   files. "Make <language> available offline" fetches every file of the language's list
   (written at build time) through the worker, which keeps them, and reports progress in
   text taken from the page's own data attributes. Without service workers the page stays
   as it was, with a sentence that says so. */

const script = document.querySelector("script[data-service-worker]");
const supported = "serviceWorker" in navigator && window.isSecureContext;

function sameOriginFiles() {
  const urls = [location.href, ...performance.getEntriesByType("resource").map((entry) => entry.name)];
  return urls.filter((url) => url.startsWith(location.origin));
}

async function register() {
  const controlled = Boolean(navigator.serviceWorker.controller);
  await navigator.serviceWorker.register(script.dataset.serviceWorker);
  const registration = await navigator.serviceWorker.ready;
  if (!controlled && registration.active) {
    registration.active.postMessage({ type: "keep", urls: sameOriginFiles() });
  } else if (controlled) {
    registration.update().catch(() => {}); // a new build is found on this visit, not only when the browser checks on its own
  }
}

function controller() {
  if (navigator.serviceWorker.controller) return Promise.resolve();
  return new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }));
}

function format(template, values) {
  const numbers = new Intl.NumberFormat(document.documentElement.lang);
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? numbers.format(values[name]) : whole));
}

async function saveLanguage(root, button, status) {
  button.disabled = true;
  let done = 0;
  let failed = 0;
  try {
    await navigator.serviceWorker.ready;
    await controller();
    const listUrl = new URL(root.dataset.list, location.href);
    const list = await (await fetch(listUrl, { cache: "no-cache" })).json();
    const siteRoot = new URL("../", listUrl);
    const queue = [...list.pages, ...list.assets, ...(list.search || [])].map(([path]) => new URL(path, siteRoot).href); // search last: kept once the list is
    const total = queue.length;
    status.textContent = format(root.dataset.progress, { done, total });
    async function next() {
      for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
        try {
          const response = await fetch(url, { cache: "no-cache" });
          if (!response.ok) failed += 1;
          await response.arrayBuffer();
        } catch (error) {
          failed += 1;
        }
        done += 1;
        if (done % 10 === 0 || done === total) status.textContent = format(root.dataset.progress, { done, total });
      }
    }
    await Promise.all([next(), next(), next(), next()]);
    status.textContent = format(failed ? root.dataset.failed : root.dataset.done, { failed, total });
  } catch (error) {
    status.textContent = format(root.dataset.failed, { failed: 1, total: 1 });
  } finally {
    button.disabled = false;
  }
}

function enhanceSaveButtons() {
  for (const root of document.querySelectorAll("[data-offline-save]")) {
    const button = root.querySelector("button");
    const status = root.querySelector("[data-offline-status]");
    if (!supported) {
      status.textContent = root.dataset.unsupported;
      continue;
    }
    button.hidden = false;
    button.addEventListener("click", () => saveLanguage(root, button, status));
  }
}

try {
  enhanceSaveButtons();
  if (supported && script) {
    if (document.readyState === "complete") register().catch(() => {});
    else window.addEventListener("load", () => register().catch(() => {}), { once: true });
  }
} catch (error) {
  /* a failure here must not stop the rest of the page */
}
