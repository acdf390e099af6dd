/* Live reload, loaded only by `build.py serve` (never part of a built site).
   The server pushes server-sent events: "ok" with the number of the current build and the
   pages it changed (any error overlay goes, and the page reloads when it is among them, or
   when the list is null: a style sheet or script changed), or "failed" with the problems of
   a failed rebuild, shown over the page, each with file:line and hint. */
(function () {
  const OVERLAY_ID = "studysite-build-errors";

  function clearOverlay() {
    const old = document.getElementById(OVERLAY_ID);
    if (old) old.remove();
  }

  function problem(item) {
    const entry = document.createElement("li");
    const where = document.createElement("code");
    where.textContent = item.where;
    // Its own colours: the page's style sheet gives code a light background, which under
    // the overlay's light text left file:line unreadable. 11.9:1 on the overlay's #1d1f21.
    Object.assign(where.style, { color: "#ffd580", background: "none", padding: "0", font: "inherit", fontWeight: "bold" });
    const message = document.createElement("span");
    message.textContent = " " + item.severity + ": " + item.message;
    entry.append(where, message);
    if (item.hint) {
      const hint = document.createElement("div");
      hint.textContent = "hint: " + item.hint;
      entry.append(hint);
    }
    entry.style.margin = "0 0 0.75em";
    return entry;
  }

  function showOverlay(problems) {
    clearOverlay();
    const overlay = document.createElement("section");
    overlay.id = OVERLAY_ID;
    overlay.setAttribute("role", "alert");
    overlay.setAttribute("aria-labelledby", OVERLAY_ID + "-title");
    const title = document.createElement("h2");
    title.id = OVERLAY_ID + "-title";
    title.textContent = "Build failed: the page shows the previous build";
    const list = document.createElement("ul");
    list.append(...problems.map(problem));
    const close = document.createElement("button");
    close.type = "button";
    close.textContent = "Hide";
    close.addEventListener("click", clearOverlay);
    overlay.append(title, list, close);
    Object.assign(overlay.style, {
      position: "fixed", inset: "1em", zIndex: "2147483647", overflow: "auto", padding: "1em 1.5em",
      background: "#1d1f21", color: "#f8f8f2", font: "15px/1.5 ui-monospace, monospace",
      border: "3px solid #ff6b6b", borderRadius: "6px",
    });
    document.body.append(overlay);
    close.focus();
  }

  /* The build this page comes from (serve writes it on the script's tag), then the last one
     heard of. A build that changed the page, or more than one since (the stream tells the
     latest only), reloads it. */
  const events = new EventSource("/__events");
  let build = Number(document.currentScript.dataset.build);
  events.addEventListener("ok", (event) => {
    clearOverlay();
    const news = JSON.parse(event.data);
    const here = location.pathname.replace(/index\.html$/, "");
    const missed = news.build > build + 1;
    if (news.build !== build && (missed || news.changed === null || news.changed.includes(here))) location.reload();
    build = news.build;
  });
  events.addEventListener("failed", (event) => showOverlay(JSON.parse(event.data)));
})();
