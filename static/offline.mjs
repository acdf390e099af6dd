/* Offline: registers the site's service worker and, on the downloads page, loads
   offline-save.mjs, which saves a whole language, its search index included, for reading
   and searching without a connection.

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

try {
  if (document.querySelector("[data-offline-save]")) import(new URL(script.dataset.save, location.href).href).then((saving) => saving.enhanceSaveButtons(supported, controller)).catch(() => {});
  if (supported && script) {
    if (document.readyState === "complete") register().catch(() => {});
    else window.addEventListener("load", () => register().catch(() => {}), { once: true });
  }
} catch (error) {
  /* a failure here must not stop the rest of the page */
}
