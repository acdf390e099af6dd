/* What the typed answers share (typed, numeric): the labelled field and its Check button,
   a form in the page (templates/questions/_parts.html) shown here, so that Enter in the
   field checks. read(text) gives [attempt, sentence, details] for an answer, or a sentence
   saying what to write when the text is none (nothing is counted then). After the answer
   the field keeps what was written, read-only. */

export function startField({ root, answer }, read) {
  const form = root.querySelector("[data-field]");
  const input = form.querySelector("input");
  const check = form.querySelector("button");
  form.hidden = false;
  function submit() {
    if (input.readOnly) return;
    const outcome = read(input.value.trim());
    if (typeof outcome === "string") { // not an answer: say what to write, count nothing
      root.querySelector("[data-result]").textContent = outcome;
      return input.focus();
    }
    input.readOnly = check.disabled = true;
    answer(...outcome);
  }
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit();
  });
  return {
    key: () => false,
    reset() {
      input.value = "";
      input.readOnly = check.disabled = false;
    },
    restore({ given }) {
      input.value = String(given);
      submit();
    },
  };
}
