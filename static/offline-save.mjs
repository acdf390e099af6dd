/* Offline saving (loaded by offline.mjs on the downloads page): "Make <language> available
   offline" fetches every file of the language's list (written at build time) through the
   service worker, which keeps them, and reports progress in text taken from the page's own
   data attributes. Without service workers the page says so. */

function format(template, values) {
  const numbers = new Intl.NumberFormat(document.documentElement.lang);
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? numbers.format(values[name]) : whole));
}

async function saveLanguage(root, button, status, controller) {
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

export function enhanceSaveButtons(supported, controller) {
  for (const root of document.querySelectorAll("[data-offline-save]")) {
    const button = root.querySelector("button");
    const status = root.querySelector("[data-offline-status]");
    if (!supported) {
      status.textContent = root.dataset.unsupported;
      continue;
    }
    button.hidden = false;
    button.addEventListener("click", () => saveLanguage(root, button, status, controller));
  }
}
