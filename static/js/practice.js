/* Practice: one question at a time with a progress bar and an optional (remembered)
   shuffle (switched during a run, it orders the questions not answered yet); its place is
   kept, so a reload goes on where it was left. The progress is one line, and each question
   starts at the top of the window under it, so a phone shows the stem and its choices whole;
   after an answer, Next sits under the result and the window scrolls just enough to show it
   and the start of the explanation, keeping the choice picked in sight. The end screen:
   percentage, missed questions, the days of the next reviews, scrolled to with the focus.
   review.js runs the same Session. Markup: templates/practice.html. */

import { enhanceQuestion, fill } from "./question.js";

export function shuffled(list, random = Math.random) {
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

/* A list of [text, href] entries (a text alone without href). */
export function linkList(list, entries) {
  list.replaceChildren(...entries.map(([text, href]) => {
    const entry = document.createElement("li");
    const link = document.createElement(href ? "a" : "span");
    if (href) link.href = href;
    link.textContent = text;
    entry.append(link);
    return entry;
  }));
}

/* [[day (ms), how many of these ids are due then]], soonest first. */
export function reviewDays(schedule, ids) {
  const days = new Map();
  for (const id of ids) {
    if (!schedule[id]) continue;
    const day = new Date(schedule[id].due).setHours(0, 0, 0, 0);
    days.set(day, (days.get(day) || 0) + 1);
  }
  return [...days.entries()].sort((a, b) => a[0] - b[0]);
}

/* After an answer: the window scrolled as little as it takes to show Next and the start of
   the explanation under the result, but never past what the choice picked says of itself
   (its mark), nor past the result. */
export function showAnswered(item, next) {
  const kept = item.querySelector("[data-choices] > :is(.is-chosen-right, .is-chosen-wrong) > .mark") || item.querySelector("[data-result]");
  const explanation = item.querySelector(".explanation");
  const start = (explanation.firstElementChild || explanation).getBoundingClientRect().top;
  const lines = 2 * (parseFloat(getComputedStyle(explanation).lineHeight) || 24);
  const end = Math.max(next.getBoundingClientRect().bottom, start + lines) + 8;
  const over = end - innerHeight;
  if (over > 0) scrollBy(0, Math.max(0, Math.min(over, kept.getBoundingClientRect().top - 8)));
}

export class Session {
  constructor(root, context, text = root.dataset) {
    this.root = root;
    this.context = context;
    this.text = text;
    this.progress = root.querySelector("[data-progress]");
    this.progressLabel = root.querySelector("[data-progress-label]");
    this.end = root.querySelector("[data-end]");
    this.items = new Map();
    this.order = [];
    this.missed = [];
    this.position = 0;
    this.arrange = (ids) => ids;
    this.onBegin = null;
    this.onFinish = null;
    this.onPlace = null; // {order, position, missed, time} after each step, or null
    this.end.querySelector("[data-restart]").addEventListener("click", () => this.begin(this.allIds(), true));
    this.end.querySelector("[data-again]").addEventListener("click", () => this.begin(this.missed, true));
  }

  add(item) {
    const id = item.dataset.question;
    const next = item.querySelector("[data-next]");
    const question = enhanceQuestion(item.querySelector(".question[data-question]"), {
      strings: this.context.strings,
      onAnswer: (attempt) => this.answered(id, attempt),
      afterAnswer: () => {
        next.hidden = false;
        next.focus({ preventScroll: true });
        showAnswered(item, next);
      },
    });
    item.querySelector("[data-result]").after(next.parentElement);
    next.setAttribute("aria-keyshortcuts", "Enter N");
    next.addEventListener("click", () => this.show(this.position + 1, true));
    this.items.set(id, { item, question, next });
  }

  allIds() { return Array.from(this.items.keys()); }

  /* Whether any question of this run was answered (its place is worth keeping). */
  started() {
    const current = this.items.get(this.order[this.position]);
    return this.position > 0 || Boolean(current && current.question.answered);
  }

  /* The questions not answered yet, put as arrange puts them (the shuffle was switched):
     those answered stay as they were, and the place is kept. */
  arrangeRest() {
    const current = this.items.get(this.order[this.position]);
    const from = this.position + (current.question.answered ? 1 : 0);
    const rest = new Set(this.order.slice(from));
    this.order = [...this.order.slice(0, from), ...this.arrange(this.allIds().filter((id) => rest.has(id)))];
    if (from === this.position) this.show(this.position, false); // another question takes the current's place
    else this.tell(from); // the answered one stays in view; Next leads to the new order
  }

  clear() {
    this.items.forEach(({ item }) => item.remove());
    this.items.clear();
  }

  begin(ids, focus = false, position = 0, missed = []) {
    this.order = position ? [...ids] : this.arrange([...ids]);
    this.missed = [...missed];
    this.end.hidden = true;
    for (const { item, question, next } of this.items.values()) {
      item.hidden = true;
      question.reset();
      next.hidden = true;
    }
    this.root.classList.add("is-running");
    if (this.onBegin) this.onBegin();
    this.show(position, focus);
  }

  show(position, focus) {
    this.position = position;
    this.items.forEach(({ item }) => { item.hidden = true; });
    const total = this.order.length;
    this.progress.max = total;
    this.progress.value = Math.min(position, total);
    this.tell(position);
    if (position >= total) return this.finish(focus);
    const { item, next } = this.items.get(this.order[position]);
    const values = { number: this.context.format(position + 1), total: this.context.format(total) };
    this.progressLabel.textContent = fill(this.text.textProgress, values);
    item.querySelector("[data-item-heading]").textContent = fill(this.text.textHeading, values);
    next.textContent = position + 1 < total ? this.text.textNext : this.text.textLast;
    item.hidden = false;
    if (focus) {
      item.querySelector("[data-item-heading]").focus({ preventScroll: true });
      this.toTop();
    }
  }

  /* The progress line at the top of the window, the question right under it. */
  toTop() {
    this.progress.parentElement.scrollIntoView({ block: "start" });
  }

  tell(position) {
    if (!this.onPlace) return;
    const kept = position > 0 && position < this.order.length; // nothing to go back to at either end
    this.onPlace(kept ? { order: this.order, position, missed: this.missed, time: Date.now() } : null);
  }

  answered(id, attempt) {
    if (!attempt.correct) this.missed.push(id);
    this.context.answer(id, attempt).catch((error) => console.warn("studysite: not scheduled", error));
    this.progress.value = this.position + 1;
    this.progressLabel.textContent = fill(this.text.textProgress, { number: this.context.format(this.position + 1), total: this.context.format(this.order.length) });
    this.tell(this.position + 1);
  }

  async finish(focus) {
    const { format } = this.context;
    const total = this.order.length;
    const right = total - this.missed.length;
    const percent = new Intl.NumberFormat(document.documentElement.lang, { style: "percent" }).format(total ? right / total : 0);
    this.progressLabel.textContent = fill(this.text.textDone, { total: format(total) });
    this.end.querySelector("[data-score]").textContent = fill(this.text.textScore, { percent, correct: format(right), total: format(total) });
    linkList(this.end.querySelector("[data-missed-list]"), this.missed.map((id) => [this.items.get(id).item.dataset.title, this.items.get(id).item.dataset.href]));
    this.end.querySelector("[data-missed]").hidden = !this.missed.length;
    this.end.hidden = false;
    if (this.onFinish) this.onFinish(); // first: what it shows around the score moves nothing once it is in view
    if (focus) {
      const heading = this.end.querySelector("[data-end-heading]");
      heading.scrollIntoView({ block: "start" });
      heading.focus({ preventScroll: true });
    }
    const order = this.order;
    await this.context.schedule(order).catch(() => {});
    this.showUpcoming(order);
  }

  showUpcoming(ids) {
    const dates = new Intl.DateTimeFormat(document.documentElement.lang, { weekday: "long", day: "numeric", month: "long" });
    const days = reviewDays(this.context.store.record().schedule, ids);
    linkList(this.end.querySelector("[data-upcoming-list]"), days.map(([day, count]) => [fill(this.text.textDay, { date: dates.format(day), count: this.context.format(count) })]));
    this.end.querySelector("[data-upcoming]").hidden = !days.length;
  }
}

function placeToResume(store, topic, session) {
  const place = store.record().places[topic];
  const fits = place && place.order.every((id) => session.items.has(id)) && place.position > 0 && place.position < place.order.length;
  return fits ? place : null;
}

export function start(context) {
  const root = document.querySelector("[data-practice]");
  const { store } = context;
  const topic = root.dataset.topic;
  const session = new Session(root, context);
  root.querySelectorAll("[data-item]").forEach((item) => session.add(item));
  root.querySelector("[data-intro]").textContent = root.dataset.introScripted;
  const shuffle = root.querySelector("[data-shuffle]");
  const resume = root.querySelector("[data-resume]");
  shuffle.checked = store.setting("shuffle") === true;
  session.arrange = (ids) => (shuffle.checked ? shuffled(ids) : ids);
  session.onPlace = (place) => store.setPlace(topic, place);
  const restart = (focus) => { resume.hidden = true; session.begin(session.allIds(), focus); };
  shuffle.addEventListener("change", () => { // the focus stays on the switch
    store.setSetting("shuffle", shuffle.checked);
    if (session.started() && session.position < session.order.length) session.arrangeRest();
    else restart(false);
  });
  root.querySelector("[data-resume-restart]").addEventListener("click", () => restart(true)); // the button goes: focus the first question
  session.onFinish = () => { resume.hidden = true; };
  root.querySelector("[data-controls]").hidden = false;
  const place = placeToResume(store, topic, session);
  if (place) {
    resume.querySelector("[data-resume-text]").textContent = fill(root.dataset.textResumed, { number: context.format(place.position + 1), total: context.format(place.order.length) });
    resume.hidden = false;
    session.begin(place.order, false, place.position, place.missed);
  } else session.begin(session.allIds(), false);
  // The question whole in the window from the start: when what is above pushes its choices below, it goes to the top.
  const shown = root.querySelector("[data-item]:not([hidden]) .reveal");
  if (shown && shown.getBoundingClientRect().top > innerHeight) session.toTop();
}
