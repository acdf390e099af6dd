// The judging of every question type (static/js/questions/<type>.js): pure functions of the
// rule the build declares (data-judge) and what the reader gave, hostile input included.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as single from "../../static/js/questions/single.js";
import * as trueFalse from "../../static/js/questions/true-false.js";
import * as multiple from "../../static/js/questions/multiple.js";
import * as typed from "../../static/js/questions/typed.js";
import * as numeric from "../../static/js/questions/numeric.js";
import * as order from "../../static/js/questions/order.js";
import * as match from "../../static/js/questions/match.js";
import { choiceIndex } from "../../static/js/questions/choices.js";

const HOSTILE = [undefined, null, NaN, Infinity, -1, 1.5, "0", "", {}, [], [[0]], { length: 1, 0: 0 }, "__proto__", () => 0, Symbol.for("x"), 10n];

test("every type module has the one interface: judge and start", () => {
  for (const module of [single, trueFalse, multiple, typed, numeric, order, match]) {
    assert.equal(typeof module.judge, "function");
    assert.equal(typeof module.start, "function");
  }
});

test("single and true-false: the index of the right choice", () => {
  assert.equal(single.judge({ answers: [2] }, 2), true);
  assert.equal(single.judge({ answers: [2] }, 1), false);
  assert.equal(trueFalse.judge({ answers: [1] }, 1), true);
  assert.equal(trueFalse.judge({ answers: [1] }, 0), false);
  for (const given of HOSTILE) assert.equal(single.judge({ answers: [0] }, given), false, String(given));
  assert.equal(single.judge({ answers: [0, 1] }, 0), false, "one answer only");
  assert.equal(single.judge({ answers: "0" }, 0), false);
  assert.equal(single.judge({}, 0), false);
});

test("the keys that choose: 1-9 and A-H, nothing else", () => {
  assert.deepEqual(["1", "9", "a", "H", "0", "i", "Enter", "", "11", "ä"].map(choiceIndex), [0, 8, 0, 7, -1, -1, -1, -1, -1, -1]);
});

test("multiple: every right choice and no wrong one", () => {
  const rule = { answers: [0, 2] };
  assert.equal(multiple.judge(rule, [0, 2]), true);
  assert.equal(multiple.judge(rule, [2, 0]), true, "in any order");
  assert.equal(multiple.judge(rule, [0, 2, 2]), true, "a pick counted once");
  assert.equal(multiple.judge(rule, [0]), false, "one missed");
  assert.equal(multiple.judge(rule, [0, 1, 2]), false, "a wrong one picked");
  assert.equal(multiple.judge(rule, []), false);
  assert.equal(multiple.judge(rule, ["0", "2"]), false, "indexes, not texts");
  for (const given of HOSTILE) assert.equal(multiple.judge(rule, given), false, String(given));
  assert.equal(multiple.judge({ answers: null }, [0]), false);
  assert.deepEqual(multiple.differences(rule, [1, 2]), { missed: [0], wrong: [1] });
  assert.deepEqual(multiple.differences({ answers: [3, 1] }, [4, 0, 1]), { missed: [3], wrong: [0, 4] });
});

test("typed: NFC, case folded, trimmed, inner spaces collapsed; accents count unless ignored", () => {
  const rule = { accept: ["6", "zes", "Straße", "Crème  brûlée"], accents: "count" };
  for (const given of ["6", " 6 ", "ZES", "Zes", "strasse", "STRASSE", "straße", "crème brûlée", "CRÈME\tBRÛLÉE", "cre\u0300me bru\u0302le\u0301e"]) {
    assert.equal(typed.judge(rule, given), true, given);
  }
  for (const given of ["creme brulee", "zes.", "z es", "66", "", "   "]) assert.equal(typed.judge(rule, given), false, given);
  const lax = { ...rule, accents: "ignore" };
  assert.equal(typed.judge(lax, "creme brulee"), true);
  assert.equal(typed.judge(lax, "CRÈME BRULÉE"), true);
  assert.equal(typed.acceptedAs(rule, " ZES "), "zes", "the accepted answer as the author wrote it");
  assert.equal(typed.normalise("  A\u00a0 b\u2003C  "), "a b c", "any space");
  assert.equal(typed.normalise("ΟΔΟΣ"), "οδος".normalize("NFC").toUpperCase().toLowerCase());
  assert.equal(typed.normalise("\u0130"), "\u0130".toUpperCase().toLowerCase(), "İ folds as Python's upper().lower()");
});

test("typed: hostile answers and rules are not accepted, and never throw", () => {
  const rule = { accept: ["6"], accents: "count" };
  for (const given of HOSTILE) assert.equal(typed.judge(rule, given), false, String(given));
  assert.equal(typed.judge(rule, "6".padEnd(5000, " ")), false, "far longer than any answer");
  assert.equal(typed.judge({ accept: "6" }, "6"), false);
  assert.equal(typed.judge({ accept: [null, 6, "6"] }, "6"), true, "the entries that are texts still count");
  assert.equal(typed.judge({ accept: ["<b>6</b>"] }, "<b>6</b>"), true, "markup is text like any other");
  assert.equal(typed.judge({ accept: [""] }, ""), false, "an empty answer is none");
});

test("numeric: a decimal comma or point, within the tolerance, compared exactly", () => {
  const rule = { answer: "9.81", tolerance: "0.05", decimal: "," };
  for (const given of ["9,81", "9.81", "9,76", "9,86", "+9,8", "9,860", " 9,81 "]) assert.equal(numeric.judge(rule, given), true, given);
  for (const given of ["9,75", "9,87", "9,860001", "-9,81", "981", "9 ,8 1x", "nine"]) assert.equal(numeric.judge(rule, given), false, given);
  assert.equal(numeric.judge({ answer: "0.3", tolerance: "0", decimal: "." }, "0.30"), true, "0.1 + 0.2 is no issue: no floats");
  assert.equal(numeric.judge({ answer: "0.3", decimal: "." }, "0.3000000000000001"), false, "no tolerance: exactly");
  assert.equal(numeric.judge({ answer: "1E+3", tolerance: "0", decimal: "." }, "1000"), true, "the build's exponent form");
  assert.equal(numeric.judge({ answer: "-2.5", tolerance: "0.5", decimal: "." }, "−3"), true, "a minus sign");
  assert.equal(numeric.judge({ answer: "12345.5", tolerance: "0", decimal: "," }, "12\u202f345,5"), true, "a narrow no-break space groups");
  assert.equal(numeric.judge({ answer: "12345.5", tolerance: "0", decimal: "," }, "12.345,5"), true, "both signs: the last is the decimal one");
  assert.equal(numeric.judge({ answer: "12345.5", tolerance: "0", decimal: "." }, "12,345.5"), true);
  assert.equal(numeric.judge({ answer: "2.5", tolerance: "0", decimal: "٫" }, "٢٫٥"), true, "Arabic-Indic digits and the Arabic decimal sign");
  assert.equal(numeric.judge({ answer: "1000000", tolerance: "0", decimal: "," }, "1.000.000"), true, "one sign repeated groups");
});

test('numeric: "1,000" is a thousand where the decimal sign is a point, and one where it is a comma', () => {
  assert.equal(numeric.readNumber("1,000", "."), "1000");
  assert.equal(numeric.readNumber("1.000", ","), "1000");
  assert.equal(numeric.readNumber("1,000", ","), "1.000");
  assert.equal(numeric.readNumber("1.000", "."), "1.000");
  assert.equal(numeric.readNumber("0,500", "."), "0.500", "a leading zero is never a thousand");
  assert.equal(numeric.readNumber("1,5", "."), "1.5", "a decimal comma counts on any page");
  assert.equal(numeric.readNumber("1.5", ","), "1.5", "and a decimal point");
});

test("numeric: hostile numbers and rules are no number, and never throw nor hang", () => {
  const rule = { answer: "9.81", tolerance: "0.05", decimal: "," };
  for (const given of [...HOSTILE, "", " ", "-", "+", ".", ",", "1e400", "1e99999999", "9,8,1,", "1.2,3.4", "0x10", "Infinity", "NaN", "9" .repeat(500), "١".repeat(90)]) {
    assert.equal(numeric.judge(rule, given), false, String(given).slice(0, 20));
  }
  for (const bad of [{ answer: "x" }, { answer: "9.81", tolerance: "-1" }, { answer: "1E+99999" }, {}, { answer: 9.81 }]) {
    assert.equal(numeric.judge(bad, "9.81"), false, JSON.stringify(bad));
  }
  assert.equal(numeric.readNumber("1e3"), null, "a reader writes no exponent");
  assert.deepEqual(numeric.exact("-1E+3"), [-1n, -3]);
  assert.deepEqual(numeric.exact(".5"), [5n, 1]);
  assert.equal(numeric.exact("1E+99999"), null);
});

test("order: every item in its place", () => {
  const rule = { items: 3 };
  assert.equal(order.judge(rule, [0, 1, 2]), true);
  assert.equal(order.judge(rule, [1, 0, 2]), false);
  assert.equal(order.judge(rule, [0, 1]), false, "an item missing");
  assert.equal(order.judge(rule, [0, 1, 2, 3]), false, "an item too many");
  assert.equal(order.judge(rule, ["0", "1", "2"]), false);
  for (const given of HOSTILE) assert.equal(order.judge(rule, given), false, String(given));
  assert.deepEqual(order.outOfPlace([2, 1, 0]), [0, 2]);
  assert.deepEqual(order.outOfPlace([0, 1, 2]), []);
});

test("match: every pair right", () => {
  const rule = { pairs: 3 };
  assert.equal(match.judge(rule, [0, 1, 2]), true);
  assert.equal(match.judge(rule, [0, 2, 1]), false);
  assert.equal(match.judge(rule, [0, 1, -1]), false, "a left item not paired");
  assert.equal(match.judge(rule, [0, 0, 0]), false);
  for (const given of HOSTILE) assert.equal(match.judge(rule, given), false, String(given));
  assert.deepEqual(match.wrongPairs([1, 0, 2, -1]), [0, 1, 3]);
});
