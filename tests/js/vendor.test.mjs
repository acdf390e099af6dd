// The vendored ts-fsrs is its npm package's ESM build minified by esbuild, byte for byte
// (scripts/vendor_fsrs.sh makes it; both tools are pinned in package-lock.json), and it
// still gives the scheduler what schedule.js takes from it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const root = new URL("../../", import.meta.url);

test("the vendored ts-fsrs is the package's code minified by the pinned esbuild", () => {
  const { version } = JSON.parse(readFileSync(new URL("node_modules/ts-fsrs/package.json", root)));
  const vendored = readFileSync(new URL(`static/vendor/ts-fsrs-${version}/index.mjs`, root), "utf8");
  const esbuild = require(new URL("node_modules/esbuild/lib/main.js", root).pathname);
  const made = esbuild.buildSync({ entryPoints: [new URL("node_modules/ts-fsrs/dist/index.mjs", root).pathname], minify: true, format: "esm", write: false, logLevel: "warning" });
  assert.equal(vendored, made.outputFiles[0].text, "run: bash scripts/vendor_fsrs.sh");
});

test("the minified scheduler schedules as the package does", async () => {
  const { version } = JSON.parse(readFileSync(new URL("node_modules/ts-fsrs/package.json", root)));
  const minified = await import(new URL(`static/vendor/ts-fsrs-${version}/index.mjs`, root));
  const original = await import(new URL("node_modules/ts-fsrs/dist/index.mjs", root));
  const now = new Date(Date.UTC(2026, 11, 7, 12));
  for (const module of [minified, original]) assert.equal(typeof module.fsrs, "function");
  const plan = (module) => {
    const scheduler = module.fsrs(module.generatorParameters({ enable_fuzz: false }));
    const first = scheduler.next(module.createEmptyCard(now), now, module.Rating.Good).card;
    return [first.due.getTime(), scheduler.next(first, first.due, module.Rating.Again).card.due.getTime()];
  };
  assert.deepEqual(plan(minified), plan(original));
});
