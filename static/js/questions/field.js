/* What the typed answers share (typed, numeric): a labelled field and a Check button in a
   form, so that Enter in the field checks. read(text) gives [attempt, sentence, details]
   for an answer, or a sentence saying what to write when the text is none (nothing is
   counted then). After the answer the field keeps what was written, read-only. */

import { make } from "../question.js";

export function startField({ root, strings, answer }, body, read) {
  const words = body.dataset;
  const id = `q-${root.dataset.question}-field`;
  const form = make("form", "answer-field");
  const label = make("label", "", words.textLabel);
  const row = make("span", "field-row");
  const input = make("input");
  const check = make("button", "check", strings.check);
  const result = root.querySelector("[data-result]");
  label.htmlFor = input.id = id;
  Object.assign(input, { type: "text", autocomplete: "off", spellcheck: false, maxLength: 100 });
  input.setAttribute("autocapitalize", "off");
  if (words.inputmode) input.inputMode = words.inputmode;
  row.append(input);
  if (body.dataset.unit) { // after the field, and part of its description
    const unit = make("span", "unit", body.dataset.unit);
    unit.id = id + "-unit";
    input.setAttribute("aria-describedby", unit.id);
    row.append(unit);
  }
  row.append(check);
  form.append(label, row);
  body.append(form);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (input.readOnly) return;
    const outcome = read(input.value.trim());
    if (typeof outcome === "string") { // not an answer: say what to write, count nothing
      result.textContent = outcome;
      return input.focus();
    }
    input.readOnly = true;
    check.disabled = true;
    answer(...outcome);
  });
  return {
    key: () => false,
    reset() {
      input.value = "";
      input.readOnly = check.disabled = false;
    },
  };
}
