// static/js/search.js: the results kept of an index merged from parts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { withoutStandIns } from "../../static/js/search.js";

const result = (url, excerpt) => ({ url, excerpt });

test("results that only stand in for a word a part lacks are left out where others have it", () => {
  const found = [
    result("/nl/questions/a/", "de effectieve <mark>bandbreedte</mark> daalt"),
    result("/nl/glossary/hbm/", "een <mark>Bandbreedte</mark> van terabytes"),
    result("/nl/questions/b/", "Antwoord: <mark>B</mark> De gewichtsmatrix"),
    result("/nl/questions/c/", "een <mark>band</mark> en een <mark>b</mark>"),
  ];
  assert.deepEqual(withoutStandIns(found, "bandbreedte").map((r) => r.url), ["/nl/questions/a/", "/nl/glossary/hbm/"]);
});

test("a word found by its stem, or a word typed in part, is no stand-in", () => {
  const found = [result("/a/", "de <mark>bandbreedte</mark>"), result("/b/", "de <mark>bandbreedtes</mark>")];
  assert.equal(withoutStandIns(found, "bandbreedtes").length, 2);
  assert.equal(withoutStandIns(found, "bandbr").length, 2);
});

test("where every result stands in, the word is in no page: they are all kept, as one index gives them", () => {
  const found = [result("/a/", "<mark>B</mark> De"), result("/b/", "een <mark>ba</mark>")];
  assert.equal(withoutStandIns(found, "bandbreedte").length, 2);
  assert.deepEqual(withoutStandIns([], "x"), []);
});

test("of several words, a result stands in only when each word it marks stands in for one", () => {
  const found = [result("/a/", "<mark>tensor</mark> en <mark>b</mark>"), result("/b/", "<mark>t</mark> en <mark>b</mark>")];
  assert.deepEqual(withoutStandIns(found, "tensor bandbreedte").map((r) => r.url), ["/a/"]);
});
