/* Practice: the questions one at a time with a progress bar, an optional shuffled order
   (remembered), every answer recorded and scheduled, and an end screen listing the
   missed questions with "practise these again". The review session (review.js) runs the
   same Session over the questions due.

   Markup (templates/practice.html): [data-practice] holds [data-controls] (shuffle,
   <progress>), items [data-item data-question data-href] each with a question component,
   [data-next], and the end screen [data-end]. Strings are the root's data- attributes. */

import { enhanceQuestion, fill } from "./question.js";
import { loadScheduler } from "./schedule.js";

export function shuffled(list, random = Math.random) {
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

export class Session {
  /* root: the element with the progress bar, items and end screen; context: main.js's;
     text: the localized strings (data- attributes). */
  constructor(root, context, scheduler, text = root.dataset) {
    this.root = root;
    this.context = context;
    this.scheduler = scheduler;
    this.text = text;
    this.progress = root.querySelector("[data-progress]");
    this.progressLabel = root.querySelector("[data-progress-label]");
    this.end = root.querySelector("[data-end]");
    this.items = new Map();
    this.order = [];
    this.missed = [];
    this.position = 0;
    this.arrange = (ids) => ids; // the order a run takes its questions in
    this.onFinish = null;
    this.end.querySelector("[data-restart]").addEventListener("click", () => this.begin(this.allIds(), true));
    this.end.querySelector("[data-again]").addEventListener("click", () => this.begin(this.missed, true));
  }

  add(item) {
    const id = item.dataset.question;
    const next = item.querySelector("[data-next]");
    const question = enhanceQuestion(item.querySelector("[data-question]"), {
      strings: this.context.strings,
      onAnswer: (choice, correct) => this.answered(id, choice, correct),
      afterAnswer: () => { next.hidden = false; next.focus(); },
    });
    next.addEventListener("click", () => this.show(this.position + 1, true));
    this.items.set(id, { item, question, next });
  }

  allIds() { return Array.from(this.items.keys()); }

  clear() {
    this.items.forEach(({ item }) => item.remove());
    this.items.clear();
  }

  begin(ids, focus = false) {
    this.order = this.arrange([...ids]);
    this.missed = [];
    this.end.hidden = true;
    for (const { item, question, next } of this.items.values()) {
      item.hidden = true;
      question.reset();
      next.hidden = true;
    }
    this.root.classList.add("is-running");
    this.show(0, focus);
  }

  show(position, focus) {
    this.position = position;
    this.items.forEach(({ item }) => { item.hidden = true; });
    const total = this.order.length;
    this.progress.max = total;
    this.progress.value = Math.min(position, total);
    if (position >= total) return this.finish(focus);
    const { item, next } = this.items.get(this.order[position]);
    const values = { number: this.context.format(position + 1), total: this.context.format(total) };
    this.progressLabel.textContent = fill(this.text.textProgress, values);
    item.querySelector("[data-item-heading]").textContent = fill(this.text.textHeading, values);
    next.textContent = position + 1 < total ? this.text.textNext : this.text.textLast;
    item.hidden = false;
    if (focus) item.querySelector("[data-item-heading]").focus();
  }

  answered(id, choice, correct) {
    const store = this.context.store;
    store.addAttempt(id, choice, correct);
    if (this.scheduler) store.setSchedule(this.scheduler.plan({ [id]: store.attempts(id) }));
    if (!correct) this.missed.push(id);
    this.context.refresh();
    this.progress.value = this.position + 1;
    this.progressLabel.textContent = fill(this.text.textProgress, { number: this.context.format(this.position + 1), total: this.context.format(this.order.length) });
  }

  finish(focus) {
    const total = this.order.length;
    const right = total - this.missed.length;
    this.progressLabel.textContent = fill(this.text.textDone, { total: this.context.format(total) });
    this.end.querySelector("[data-score]").textContent = fill(this.text.textScore, { correct: this.context.format(right), total: this.context.format(total) });
    const list = this.end.querySelector("[data-missed-list]");
    list.replaceChildren(...this.missed.map((id) => {
      const entry = document.createElement("li");
      const link = document.createElement("a");
      link.href = this.items.get(id).item.dataset.href;
      link.textContent = this.items.get(id).item.dataset.title;
      entry.append(link);
      return entry;
    }));
    this.end.querySelector("[data-missed]").hidden = !this.missed.length;
    this.end.hidden = false;
    this.context.refresh();
    if (focus) this.end.querySelector("[data-end-heading]").focus();
    if (this.onFinish) this.onFinish();
  }
}

export async function startPractice(context) {
  const root = document.querySelector("[data-practice]");
  let scheduler = null;
  try { scheduler = await loadScheduler(root.dataset.scheduler); } catch (error) { console.warn("studysite: no scheduler", error); }
  const session = new Session(root, context, scheduler);
  root.querySelectorAll("[data-item]").forEach((item) => session.add(item));
  const intro = root.querySelector("[data-intro]");
  intro.textContent = root.dataset.introScripted;
  const shuffle = root.querySelector("[data-shuffle]");
  shuffle.checked = context.store.setting("shuffle") === true;
  session.arrange = (ids) => (shuffle.checked ? shuffled(ids) : ids);
  shuffle.addEventListener("change", () => {
    context.store.setSetting("shuffle", shuffle.checked);
    session.begin(session.allIds(), false);
  });
  root.querySelector("[data-controls]").hidden = false;
  session.begin(session.allIds(), false);
}
