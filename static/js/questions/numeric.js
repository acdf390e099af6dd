/* numeric: the reader writes a number in a field (questions/field.js), judged exactly as
   the build declares it, data-judge {"answer": "9.81", "tolerance": "0.05", "decimal": ","}:
   right when it is within the tolerance of the answer. The numbers are compared as decimal
   strings scaled to integers (BigInt), never as floats, so 0.1 + 0.2 is 0.3 here.

   How the reader's text is read, in the page language's notation or another's: spaces of
   any width (a thin space, a no-break space), apostrophes and the Arabic thousands sign
   group digits and are left out; a decimal comma and a decimal point both count, as does
   the page's own decimal sign (data-judge's "decimal", e.g. Arabic "٫"); with both a comma
   and a point, the last is the decimal sign and the other groups ("1.000,5", "1,000.5");
   one sign repeated groups ("1.000.000"). "1,000" is a thousand on a page whose decimal
   sign is a point (a lone sign before exactly three digits, not the page's decimal sign,
   groups them), and one (1.000) on a page whose decimal sign is a comma. Arabic-Indic and
   Devanagari digits are read as 0-9. Anything else is no number: nothing is counted and
   the reader is asked for one. */

import { fill } from "../question.js";
import { startField } from "./field.js";

const ZEROS = [0x660, 0x6f0, 0x966]; // Arabic-Indic, Eastern Arabic-Indic, Devanagari
const GROUPING = /[\s'’\u066c]/gu;
const MAX_DIGITS = 60;
const MAX_EXPONENT = 400;

/* A decimal string ("9.81", "-1E+3", ".5") as [integer, scale], its value integer / 10^scale; or null. */
export function exact(text) {
  const found = typeof text === "string" && /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,4}))?$/.exec(text);
  if (!found || !(found[2] || found[3])) return null;
  const [, sign, whole, fraction = "", exponent = "0"] = found;
  if (whole.length + fraction.length > MAX_DIGITS || Math.abs(Number(exponent)) > MAX_EXPONENT) return null;
  return [BigInt((sign === "-" ? "-" : "") + (whole + fraction || "0")), fraction.length - Number(exponent)];
}

/* a - b as [integer, scale]. */
function difference([a, as], [b, bs]) {
  const scale = Math.max(as, bs);
  return [a * 10n ** BigInt(scale - as) - b * 10n ** BigInt(scale - bs), scale];
}

/* Whether a (an [integer, scale]) is at most b. */
function atMost(a, b) {
  const [d] = difference(a, b);
  return d <= 0n;
}

/* The reader's text as a plain decimal string ("1000.5"), or null when it is no number. */
export function readNumber(text, decimal = ".") {
  let s = String(text).normalize("NFKC").replace(/[\u0660-\u0669\u06f0-\u06f9\u0966-\u096f]/g, (digit) => {
    const code = digit.charCodeAt(0);
    return String(code - ZEROS.find((zero) => code >= zero && code - zero < 10));
  });
  s = s.replace(GROUPING, "").replace(/^[\u2212\u2013]/, "-");
  const own = decimal === "," ? "," : "."; // the page's decimal sign, as it is read
  if (decimal && own !== decimal) s = s.split(decimal).join(".");
  const signs = s.match(/[.,]/g) || [];
  if (new Set(signs).size === 2) {
    const last = signs[signs.length - 1];
    if (signs.indexOf(last) !== signs.length - 1) return null; // the decimal sign twice
    s = s.split(last === "." ? "," : ".").join("");
  } else if (signs.length > 1) s = s.replace(/[.,]/g, "");
  else if (signs.length === 1 && signs[0] !== own && /^[+-]?[1-9]\d{0,2}[.,]\d{3}$/.test(s)) s = s.replace(/[.,]/, "");
  s = s.replace(",", ".");
  return /^[+-]?(\d+\.?\d*|\.\d+)$/.test(s) && exact(s) ? s : null;
}

/* Right when the reader's number is within the tolerance of the answer (both ends count). */
export function judge(rule, given) {
  const read = typeof given === "string" && given.length <= 100 ? readNumber(given, rule.decimal) : null;
  const [mine, answer, tolerance] = [read, rule.answer, rule.tolerance || "0"].map((text) => (text === null ? null : exact(text)));
  if (!mine || !answer || !tolerance || tolerance[0] < 0n) return false;
  const [d, scale] = difference(mine, answer);
  return atMost([d < 0n ? -d : d, scale], tolerance);
}

export function start(question) {
  const { root, rule, strings } = question;
  const body = root.querySelector("[data-numeric]");
  const shown = root.querySelector(".reveal [data-judge] > span"); // the answer with its unit, as the page writes it
  return startField(question, (text) => {
    if (readNumber(text, rule.decimal) === null) return fill(body.dataset.textNumber, { example: `12${rule.decimal}5` });
    const correct = judge(rule, text);
    return [{ correct, given: text }, fill(correct ? strings.rightIs : strings.wrongIs, { answer: shown.textContent.trim() })];
  });
}
