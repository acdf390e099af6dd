/* Offline: registers the site's service worker once the page has loaded (a first visit
   costs nothing else), asks it on a later visit whether the site was built again, and has
   it keep a page that loaded before it was in charge, with its files. On the downloads page
   it loads offline-save.mjs, which saves a whole language. Without service workers the
   page stays as it was. */

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
