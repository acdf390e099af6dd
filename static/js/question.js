/* A question answerable in place: its choices become buttons; choosing one marks it and
   the right one in words (not colour alone), announces the result and opens the
   explanation. The answer is read from the reveal's [data-answer], the only place it is
   before answering. Markup: templates/macros.html. */

export function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

/* The second click of a double click or tap (the browser counts them in detail): its first
   went to what was in this place before, Next or Start again, which put this question there,
   so it answers nothing. A key or button.click() counts 0. */
function secondClick(event) {
  return event.detail > 1;
}

export function enhanceQuestion(root, { strings, onAnswer = null, afterAnswer = null }) {
  const list = root.querySelector("[data-choices]");
  const reveal = root.querySelector("details.reveal");
  const answerData = reveal && reveal.querySelector("[data-answer]");
  const result = root.querySelector("[data-result]");
  if (!list || !answerData || !result) return null;
  const prefix = "q-" + root.dataset.question;
  const items = Array.from(list.children);
  let answered = false;

  const buttons = items.map((item, index) => {
    const text = item.querySelector(".choice-text");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "choice-button";
    button.id = `${prefix}-choice-${index}`;
    text.id = `${prefix}-text-${index}`;
    button.append(item.querySelector(".letter"));
    button.setAttribute("aria-labelledby", `${button.id} ${text.id}`);
    if (index < 8) button.setAttribute("aria-keyshortcuts", `${index + 1} ${"ABCDEFGH"[index]}`); // keys.js
    item.prepend(button);
    button.addEventListener("click", (event) => { if (!secondClick(event)) choose(index); });
    item.addEventListener("click", (event) => { if (!event.target.closest("a, button") && !secondClick(event)) button.click(); });
    return button;
  });
  list.classList.add("is-answerable");
  reveal.querySelector("summary").setAttribute("aria-keyshortcuts", "R");

  function mark(item, kind) {
    item.classList.add("is-" + kind);
    const label = document.createElement("span");
    label.className = "mark";
    label.dataset.mark = "";
    label.textContent = strings.marks[kind];
    item.append(label);
  }

  function choose(index) {
    if (answered) return;
    answered = true;
    const answer = Number(answerData.dataset.answer);
    const correct = index === answer;
    const letter = items[answer].querySelector(".letter").textContent;
    if (correct) mark(items[index], "chosen-right");
    else { mark(items[index], "chosen-wrong"); mark(items[answer], "correct"); }
    buttons.forEach((button) => { button.disabled = true; });
    result.textContent = fill(correct ? strings.right : strings.wrong, { letter });
    result.className = "result " + (correct ? "is-right" : "is-wrong");
    reveal.open = true;
    if (onAnswer) onAnswer({ choice: index, correct });
    if (afterAnswer) afterAnswer();
    else { // the result is read out, and Enter (keys.js) goes on to the next question
      result.tabIndex = -1;
      result.focus();
    }
  }

  function reset() {
    answered = false;
    items.forEach((item) => item.classList.remove("is-chosen-right", "is-chosen-wrong", "is-correct"));
    root.querySelectorAll("[data-mark]").forEach((label) => label.remove());
    buttons.forEach((button) => { button.disabled = false; });
    result.textContent = "";
    result.className = "result";
    reveal.open = false;
  }

  return { reset, get answered() { return answered; } };
}
