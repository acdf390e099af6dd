/* A question answerable in place, of any type. This core finds what every type has (the
   result, role=status; the reveal, whose [data-judge] is the only place the answer is
   before answering), loads the type's module by the root's data-type, questions/<type>.js
   (the file name is the dispatch: a new type needs its module and nothing here), and does
   for every type: the result in words, the reveal opened after the answer, the attempt
   handed on (onAnswer), honest grading (an answer given after the reveal was opened is a
   miss, and the result says so) and the focus after it.

   A type's module exports judge(rule, given), pure (rule: data-judge's JSON), and
   start(question) -> {reset(), key(key) -> handled, restore(attempt)}; question is {root,
   rule, strings, answer(attempt, sentence, details)}, attempt {correct, choice or given};
   restore gives an answer again as the reader gave it (an exam resumed after a reload).
   Markup: templates/questions/<type>.html.

   Quiet (an exam): an answer is handed on and says only that it was kept; the marks, the
   result and the reveal stay out of sight (style.css .is-quiet) until reveal(), and the
   reader may take it back (reset). A choice picked is marked "Your answer" meanwhile. */

export function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

/* The second click of a double click or tap (the browser counts them in detail): its first
   went to what was in this place before, Next or Start again, which put this question there,
   so it answers nothing. A key or button.click() counts 0. */
export function secondClick(event) {
  return event.detail > 1;
}

/* What a part of the answer was, in words (a mark, data-mark: reset takes it away). */
export function markLabel(text) {
  const label = document.createElement("span");
  label.className = "mark";
  label.dataset.mark = "";
  label.textContent = text;
  return label;
}

/* A question's component taken from its own page, its links and sources made absolute. */
export async function fetchQuestion(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${response.status} ${url}`);
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  const article = page.querySelector("[data-question]");
  if (!article) throw new Error("no question in " + url);
  article.querySelectorAll("[href], [src]").forEach((e) => { const name = e.hasAttribute("href") ? "href" : "src"; e.setAttribute(name, new URL(e.getAttribute(name), url).href); });
  const heading = article.querySelector("h1");
  const stem = document.createElement("p");
  stem.className = "stem";
  if (heading.lang) stem.lang = heading.lang;
  stem.append(...heading.childNodes);
  heading.replaceWith(stem);
  article.removeAttribute("data-question-page");
  return document.adoptNode(article);
}

const TYPE = /^[a-z]+(?:-[a-z]+)*$/;
const started = new WeakMap();

/* The component of a question root that enhanceQuestion started (keys.js finds it so). */
export function controllerOf(root) {
  return started.get(root);
}

export function enhanceQuestion(root, { strings, onAnswer = null, afterAnswer = null, quiet = false }) {
  const reveal = root.querySelector("details.reveal");
  const rule = reveal && reveal.querySelector("[data-judge]");
  const result = root.querySelector("[data-result]");
  const type = root.dataset.type || "single";
  if (!rule || !result || !TYPE.test(type)) return null;
  let part = null;
  let answered = false;
  let restoring = false;
  let verdict = null; // what a quiet answer's result will say: [sentence, class]
  let shown = reveal.open; // the answer seen before it was given
  root.classList.toggle("is-quiet", quiet);
  reveal.addEventListener("toggle", () => { if (reveal.open && !answered) shown = true; });
  reveal.querySelector("summary").setAttribute("aria-keyshortcuts", "R");

  function answer(attempt, sentence, details = []) {
    if (answered) return;
    answered = true;
    root.classList.add("is-answered");
    const words = [sentence, ...details];
    if (shown) words.push(strings.shown);
    verdict = [words.join(" "), "result " + (attempt.correct ? "is-right" : "is-wrong")];
    if (quiet) {
      result.textContent = strings.saved;
      root.querySelectorAll("[data-choices] > :is(.is-chosen-right, .is-chosen-wrong)").forEach((item) => {
        const mark = item.appendChild(markLabel(strings.marks.yours));
        mark.classList.add("quiet-mark");
      });
    } else showVerdict();
    if (restoring) return;
    if (onAnswer) onAnswer(shown ? { ...attempt, correct: false, shown } : attempt);
    if (afterAnswer) afterAnswer();
    else { // the result is read out, and Enter (keys.js) goes on to the next question
      result.tabIndex = -1;
      result.focus();
    }
  }

  function showVerdict() {
    [result.textContent, result.className] = verdict;
    reveal.open = true;
  }

  const question = {
    type,
    get quiet() { return quiet; },
    get answered() { return answered; },
    key: (key) => Boolean(part && !answered && part.key(key)),
    reset() {
      answered = shown = false;
      root.classList.remove("is-answered");
      result.textContent = "";
      result.className = "result";
      reveal.open = false;
      if (part) part.reset();
    },
    /* An answer given before (once the type's module is loaded: await ready), shown again and handed on to no one. */
    restore(attempt) {
      if (!part || answered) return;
      restoring = true;
      try { part.restore(attempt); } finally { restoring = false; }
    },
    /* A quiet question's result, marks and explanation, shown at last. */
    reveal() {
      root.classList.remove("is-quiet");
      root.querySelectorAll(".quiet-mark").forEach((mark) => mark.remove());
      quiet = false;
      if (answered) showVerdict();
    },
  };
  question.ready = import(`./questions/${type}.js`)
    .then((module) => { part = module.start({ root, rule: JSON.parse(rule.dataset.judge), strings, answer }); })
    .catch((error) => console.warn(`studysite ${type}:`, error));
  started.set(root, question);
  return question;
}
