/* The mock exam (templates/exam.html). The student chooses topics, how many questions and
   how many minutes; the questions, drawn at random from those topics, are fetched from their
   own pages (question.js fetchQuestion) and answered one at a time, quietly: an answer is
   kept in the exam (storage.js exams) and may be taken back, but whether it is right shows
   only once the exam is handed in or its time runs out. Then come the score, the score per
   topic and the missed questions, linked; the answers become attempts like any other
   (storage.js endExam), which main.js schedules and the daily goal counts. The clock runs
   from the exam's start: a reload resumes the exam with its answers, or hands it in when its
   time ran out meanwhile. The time left is text, announced at the start, at 10, 5 and 1
   minutes left, and at the end. */

import { enhanceQuestion, fetchQuestion, fill } from "./question.js";
import { linkList, shuffled } from "./practice.js";

const MINUTE = 60 * 1000;
const MARKS = [1, 5, 10]; // minutes left that are announced

/* count of these ids, drawn at random. */
export function draw(ids, count, random = Math.random) {
  return shuffled(ids, random).slice(0, count);
}

export const endOf = (exam) => exam.started + exam.minutes * MINUTE;

/* An exam's score: right of total, per topic (in the order of topics, then any other), and
   the questions missed (answered wrong or not at all), in the exam's order. */
export function scoreOf(exam, topicOf, topics = []) {
  const rows = new Map(topics.map((topic) => [topic, { topic, right: 0, total: 0 }]));
  const isRight = (id) => Boolean(exam.answers[id] && exam.answers[id].correct);
  for (const id of exam.order) {
    const topic = topicOf(id);
    if (!rows.has(topic)) rows.set(topic, { topic, right: 0, total: 0 });
    rows.get(topic).total += 1;
    if (isRight(id)) rows.get(topic).right += 1;
  }
  const missed = exam.order.filter((id) => !isRight(id));
  return { right: exam.order.length - missed.length, total: exam.order.length, topics: [...rows.values()].filter((row) => row.total), missed };
}

/* "m:ss", or "h:mm:ss" from an hour on, of a span of ms (a second begun counts whole). */
export function clockText(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const [h, m, s] = [Math.floor(seconds / 3600), Math.floor(seconds / 60) % 60, seconds % 60];
  const two = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

/* The minutes left to announce when the time left went from before to now (ms), or 0. */
export function passedMark(before, now) {
  return MARKS.find((minutes) => before > minutes * MINUTE && now <= minutes * MINUTE) || 0;
}

export function start(context) {
  const root = document.querySelector("[data-exam]");
  const text = root.dataset;
  const find = (selector) => root.querySelector(selector);
  const index = JSON.parse(document.getElementById("exam-questions").textContent);
  const choices = Array.from(root.querySelectorAll("[data-topic-choice]"));
  const topicName = (topic) => { const box = choices.find((c) => c.value === topic); return box ? box.nextElementSibling.textContent.trim() : topic; };
  const rootURL = new URL(context.rootPath, location.href);
  const urlOf = (id) => new URL(index[id].path, rootURL).href;
  const lang = document.documentElement.lang;
  const minutesText = (n) => new Intl.NumberFormat(lang, { style: "unit", unit: "minute", unitDisplay: "long" }).format(n);
  const percent = new Intl.NumberFormat(lang, { style: "percent" });
  const { store, format } = context;
  const [setup, run, results] = ["[data-setup]", "[data-run]", "[data-results]"].map(find);
  const say = find("[data-clock-say]");
  let exam = null; // the running exam, as stored
  let items = []; // [{id, item, question, change}]
  let position = 0;
  let timer = 0;
  let left = 0;

  const stored = () => store.record().exams.find((kept) => kept.started === exam.started);
  const answeredCount = () => Object.keys(stored().answers).length;
  const showOnly = (part) => { for (const section of [setup, run, results]) section.hidden = section !== part; };

  function showCounts() {
    find("[data-answered]").textContent = fill(text.textAnswered, { count: format(answeredCount()), total: format(exam.order.length) });
  }

  function tick() {
    const now = endOf(exam) - Date.now();
    find("[data-timer]").textContent = fill(text.textTimer, { time: clockText(now) });
    const mark = passedMark(left, now);
    if (mark) say.textContent = fill(text.textLeft, { time: minutesText(mark) });
    left = now;
    if (now <= 0) handIn(endOf(exam), true);
  }

  function show(at, focus) {
    position = Math.max(0, Math.min(at, items.length - 1));
    items.forEach(({ item }, i) => { item.hidden = i !== position; });
    const { item } = items[position];
    const values = { number: format(position + 1), total: format(items.length) };
    item.querySelector("[data-item-heading]").textContent = fill(text.textHeading, values);
    item.querySelector("[data-previous]").disabled = position === 0;
    item.querySelector("[data-next]").textContent = position + 1 < items.length ? text.textNext : text.textLast;
    if (focus) item.querySelector("[data-item-heading]").focus();
  }

  function makeItem(id, article) {
    const item = find("[data-item-template]").content.firstElementChild.cloneNode(true);
    item.dataset.question = id;
    item.hidden = true;
    item.querySelector("[data-slot]").replaceWith(article);
    find("[data-exam-items]").append(item);
    const change = item.querySelector("[data-change]");
    const next = item.querySelector("[data-next]");
    const question = enhanceQuestion(article, {
      strings: context.strings,
      quiet: true,
      onAnswer: (attempt) => { store.setExamAnswer(exam.started, id, attempt); showCounts(); },
      afterAnswer: () => {
        change.hidden = false;
        next.focus({ preventScroll: true });
        next.scrollIntoView({ block: "nearest" });
      },
    });
    change.addEventListener("click", () => {
      question.reset();
      store.setExamAnswer(exam.started, id, null);
      change.hidden = true;
      showCounts();
      item.querySelector("[data-item-heading]").focus();
    });
    item.querySelector("[data-previous]").addEventListener("click", () => show(position - 1, true));
    next.addEventListener("click", () => (position + 1 < items.length ? show(position + 1, true) : askHandIn()));
    return { id, item, question, change };
  }

  /* The exam's questions fetched, shown, and its answers given again; true once all arrived. */
  async function load() {
    const status = find("[data-run-status]");
    status.textContent = text.textLoading;
    find("[data-retry-line]").hidden = true;
    const mine = exam;
    try {
      const ids = exam.order.filter((id) => index[id]); // those this language's site has
      if (!ids.length) return void handIn(Date.now(), false);
      const articles = await Promise.all(ids.map((id) => fetchQuestion(urlOf(id))));
      if (exam !== mine) return false; // handed in meanwhile: its time ran out
      find("[data-exam-items]").replaceChildren();
      items = ids.map((id, i) => makeItem(id, articles[i]));
      const answers = stored().answers;
      await Promise.all(items.map(({ question }) => question.ready));
      for (const { id, question, change } of items) {
        if (answers[id]) { question.restore(answers[id]); change.hidden = false; }
      }
      status.textContent = "";
      showCounts();
      const first = items.findIndex(({ id }) => !answers[id]);
      show(first < 0 ? 0 : first, true);
      return true;
    } catch (error) {
      console.warn("studysite exam:", error);
      status.textContent = text.unavailable;
      find("[data-retry-line]").hidden = false;
      return false;
    }
  }

  function running(kept) {
    exam = kept;
    showOnly(run);
    find("[data-confirm-hand-in]").hidden = true;
    left = endOf(exam) - Date.now();
    tick();
    clearInterval(timer);
    timer = setInterval(tick, 1000);
    return load();
  }

  function askHandIn() {
    const open = exam.order.length - answeredCount();
    if (!open) return handIn(Date.now(), false);
    find("[data-unanswered-text]").textContent = fill(text.textUnanswered, { count: format(open) });
    find("[data-confirm-hand-in]").hidden = false;
    find("[data-unanswered-text]").focus();
  }

  function handIn(ended, timedOut) {
    clearInterval(timer);
    store.endExam(exam.started, ended);
    const done = stored();
    exam = null;
    showResults(done, timedOut);
    context.refresh();
    context.schedule().catch(() => {}); // its answers, now attempts
  }

  function showResults(done, timedOut) {
    const topicOf = (id) => (index[id] ? index[id].topic : "");
    const score = scoreOf(done, topicOf, choices.map((c) => c.value));
    find("[data-results-note]").textContent = timedOut ? text.textTimeUp : "";
    find("[data-score]").textContent = fill(text.textScore, {
      percent: percent.format(score.total ? score.right / score.total : 0), correct: format(score.right), total: format(score.total),
    });
    find("[data-topic-scores]").replaceChildren(...score.topics.map((row) => {
      const line = document.createElement("tr");
      const name = document.createElement("th");
      name.scope = "row";
      name.textContent = topicName(row.topic);
      const cells = [fill(text.textTopicScore, { correct: format(row.right), total: format(row.total) }), percent.format(row.right / row.total)].map((words) => {
        const cell = document.createElement("td");
        cell.textContent = words;
        return cell;
      });
      line.append(name, ...cells);
      return line;
    }));
    linkList(find("[data-missed-list]"), score.missed.map((id) => {
      const title = index[id] ? index[id].title : id;
      return [done.answers[id] ? title : fill(text.textNotAnswered, { title }), index[id] ? urlOf(id) : ""];
    }));
    find("[data-missed]").hidden = !score.missed.length;
    find("[data-exam-items]").replaceChildren();
    items = [];
    showOnly(results);
    showHistory();
    const heading = find("[data-results-heading]");
    heading.scrollIntoView({ block: "start" });
    heading.focus({ preventScroll: true });
    if (timedOut) say.textContent = text.textTimeUp;
  }

  function showHistory() {
    const dates = new Intl.DateTimeFormat(lang, { dateStyle: "long", timeStyle: "short" });
    const ended = store.record().exams.filter((kept) => kept.ended !== undefined).reverse().slice(0, 10);
    linkList(find("[data-history-list]"), ended.map((kept) => {
      const { right, total } = scoreOf(kept, () => "");
      return [fill(text.textPast, { date: dates.format(kept.started), correct: format(right), total: format(total) })];
    }));
    find("[data-history]").hidden = !ended.length;
  }

  setup.addEventListener("submit", async (event) => {
    event.preventDefault();
    const status = find("[data-setup-status]");
    const topics = new Set(choices.filter((c) => c.checked).map((c) => c.value));
    const [count, minutes] = ["[data-count]", "[data-minutes]"].map(find);
    if (!topics.size) return void (status.textContent = text.textNone);
    for (const input of [count, minutes]) {
      input.setAttribute("aria-invalid", String(!input.checkValidity()));
      if (!input.checkValidity()) return input.reportValidity();
    }
    status.textContent = "";
    const pool = Object.keys(index).filter((id) => topics.has(index[id].topic));
    const kept = { started: Date.now(), minutes: Number(minutes.value), order: draw(pool, Number(count.value)) };
    if (!store.startExam(kept)) return;
    const loaded = await running(kept);
    if (loaded) say.textContent = fill(text.textStarted, { time: minutesText(kept.minutes) });
  });
  find("[data-hand-in]").addEventListener("click", askHandIn);
  find("[data-hand-in-anyway]").addEventListener("click", () => handIn(Date.now(), false));
  find("[data-back-to-exam]").addEventListener("click", () => { find("[data-confirm-hand-in]").hidden = true; show(position, true); });
  find("[data-retry]").addEventListener("click", load);
  find("[data-new-exam]").addEventListener("click", () => { showOnly(setup); choices[0].focus(); });

  // An exam left running: each one whose time ran out is handed in; the last one still on resumes.
  const open = store.record().exams.filter((kept) => kept.ended === undefined);
  const now = Date.now(); // one reading: an exam ending between two would be neither handed in nor resumed
  const late = open.filter((kept) => endOf(kept) <= now);
  late.forEach((kept) => { exam = kept; handIn(endOf(kept), true); });
  const current = open.find((kept) => endOf(kept) > now);
  if (current) running(current);
  else if (!late.length) { showOnly(setup); showHistory(); }
  root.hidden = false;
}
