/* Offline saving (loaded by offline.mjs on the downloads page): "Make <language> available
   offline" fetches every file of the language's list (written at build time) through the
   service worker, which keeps them, and reports progress in text taken from the page's own
   data attributes. Once saved, the page says so with the size kept, and offers to remove
   it; the worker says what is saved (it holds the files), so the page says the same after
   a reload. Without service workers the page says so. */

const SAVING = "x-studysite-saving"; /* tells the worker a file is fetched to save the language (service-worker.js) */

function format(template, values) {
  const numbers = new Intl.NumberFormat(document.documentElement.lang);
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? (typeof values[name] === "number" ? numbers.format(values[name]) : values[name]) : whole));
}

/* A size in the page's language: "840 kB", "3,2 MB". */
function size(bytes) {
  const [unit, amount] = bytes >= 1e6 ? ["megabyte", bytes / 1e6] : ["kilobyte", Math.max(1, Math.round(bytes / 1e3))];
  return new Intl.NumberFormat(document.documentElement.lang, { style: "unit", unit, maximumFractionDigits: 1 }).format(amount);
}

/* Ask the worker about the language (type "saved") or have it removed ("forget"): its answer, {saved, bytes}. */
async function ask(root, type) {
  const registration = await navigator.serviceWorker.ready;
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => resolve(event.data);
    registration.active.postMessage({ type, language: root.dataset.language }, [channel.port2]);
  });
}

function show(root, state) {
  const { save, remove, saved } = parts(root);
  saved.textContent = state.saved ? format(root.dataset.saved, { size: size(state.bytes) }) : "";
  saved.hidden = !state.saved;
  save.hidden = state.saved; /* a saved language follows each new build by itself */
  remove.hidden = !state.saved;
}

function parts(root) {
  return {
    save: root.querySelector("[data-offline-save-button]"),
    remove: root.querySelector("[data-offline-remove]"),
    status: root.querySelector("[data-offline-status]"),
    saved: root.querySelector("[data-offline-saved]"),
  };
}

async function saveLanguage(root, controller) {
  const { save, status } = parts(root);
  save.disabled = true;
  let done = 0;
  let failed = 0;
  try {
    await navigator.serviceWorker.ready;
    await controller();
    const listUrl = new URL(root.dataset.list, location.href);
    const headers = { [SAVING]: "1" };
    const list = await (await fetch(listUrl, { cache: "no-cache", headers })).json();
    const siteRoot = new URL("../", listUrl);
    const queue = [...list.pages, ...list.assets, ...(list.search || [])].map(([path]) => new URL(path, siteRoot).href); // search last: kept once the list is
    const total = queue.length;
    status.textContent = format(root.dataset.progress, { done, total });
    async function next() {
      for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
        try {
          const response = await fetch(url, { cache: "no-cache", headers });
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
    show(root, await ask(root, "saved"));
    if (save.hidden) parts(root).saved.focus(); /* the button pressed is gone: the focus goes to what it made */
  } catch (error) {
    status.textContent = format(root.dataset.failed, { failed: 1, total: 1 });
  } finally {
    save.disabled = false;
  }
}

async function removeLanguage(root) {
  const { save, remove, status } = parts(root);
  remove.disabled = true;
  try {
    show(root, await ask(root, "forget"));
    status.textContent = root.dataset.removed;
    save.focus(); /* the button that was pressed is gone: the one that takes its place */
  } finally {
    remove.disabled = false;
  }
}

export function enhanceSaveButtons(supported, controller) {
  for (const root of document.querySelectorAll("[data-offline-save]")) {
    const { save, remove, status } = parts(root);
    if (!supported) {
      status.textContent = root.dataset.unsupported;
      continue;
    }
    save.hidden = Boolean(navigator.serviceWorker.controller); /* a worker in charge answers at once what is saved: shown then, without a flash of the wrong button */
    save.addEventListener("click", () => saveLanguage(root, controller));
    remove.addEventListener("click", () => removeLanguage(root));
    ask(root, "saved").then((state) => show(root, state)).catch(() => { save.hidden = false; });
  }
}
