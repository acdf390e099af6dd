/* typed: the reader types the answer in a field (questions/field.js). Judged as the build
   declares it, data-judge {"accept": [...], "accents": "count" | "ignore"}: the answer and
   each accepted one are compared after Unicode NFC, case folding, trimming and collapsing
   inner spaces, and with accents stripped (NFD, then every combining mark removed) only when
   accents are ignored. The result says whether the answer was accepted, and the answer. */

import { fill } from "../question.js";
import { startField } from "./field.js";

const MAX_LENGTH = 200; // longer is no answer an author gave

/* A text as it is compared. Case folding is toUpperCase().toLowerCase(), which is what
   Python's str.upper().lower() does (so "Straße" and "STRASSE" are the same). */
export function normalise(text, accents = "count") {
  let folded = String(text).normalize("NFC").toUpperCase().toLowerCase().trim().replace(/\s+/gu, " ");
  if (accents === "ignore") folded = folded.normalize("NFD").replace(/\p{M}/gu, "").normalize("NFC");
  return folded;
}

/* The accepted answer (as the author wrote it) that this text is, or null. */
export function acceptedAs(rule, given) {
  if (typeof given !== "string" || given.length > MAX_LENGTH || !Array.isArray(rule.accept)) return null;
  const mine = normalise(given, rule.accents);
  if (!mine) return null;
  return rule.accept.find((text) => typeof text === "string" && normalise(text, rule.accents) === mine) ?? null;
}

export function judge(rule, given) {
  return acceptedAs(rule, given) !== null;
}

export function start(question) {
  const body = question.root.querySelector("[data-typed]");
  const words = body.dataset;
  return startField(question, (text) => {
    if (!text) return words.textEmpty;
    const accepted = acceptedAs(question.rule, text);
    const sentence = accepted === null ? fill(words.textWrong, { answer: question.rule.accept[0] }) : fill(words.textRight, { answer: accepted });
    return [{ correct: accepted !== null, given: text.slice(0, MAX_LENGTH) }, sentence];
  });
}
