/* The 404 page in the reader's language.

   404.html holds one <section data-language> per site language; the default language's
   shows without JavaScript. GitHub Pages serves the page for any missing path, so the
   first segment of that path (below the site's base path) names the reader's language:
   where it is a site language, its section is shown instead, and the page's language,
   direction and title follow. Every string comes from the page. */

function requestedLanguage(root) {
  const base = new URL(root.dataset.base || "/", document.baseURI).pathname;
  const path = location.pathname.startsWith(base) ? location.pathname.slice(base.length) : location.pathname.replace(/^\//, "");
  return decodeURIComponent(path.split("/")[0] || "");
}

function showLanguage(root) {
  const sections = Array.from(root.querySelectorAll("section[data-language]"));
  const wanted = requestedLanguage(root).toLowerCase();
  const chosen = sections.find((section) => section.dataset.language.toLowerCase() === wanted);
  if (!chosen) return;
  sections.forEach((section) => { section.hidden = section !== chosen; });
  document.documentElement.lang = chosen.lang;
  document.documentElement.dir = chosen.dir;
  if (chosen.dataset.title) document.title = chosen.dataset.title;
}

const root = document.querySelector("[data-not-found]");
if (root) {
  try { showLanguage(root); } catch (error) { /* the default language stays shown */ }
}
