#!/usr/bin/env bash
# The vendored ts-fsrs: its npm package's ESM build (node_modules/ts-fsrs, pinned in
# package-lock.json) minified by esbuild (pinned too), so that a page that schedules answers
# loads 7 KB of it gzipped instead of 13. The licence comes with it. After moving ts-fsrs to
# another version in package.json: npm install, run this, rename the folder and
# render/renderer.py's SCHEDULER, and commit. tests/js/vendor.test.mjs checks the file is
# exactly this script's output.
set -euo pipefail
cd "$(dirname "$0")/.."
version="$(node -p "require('./node_modules/ts-fsrs/package.json').version")"
out="static/vendor/ts-fsrs-$version"
mkdir -p "$out"
node_modules/.bin/esbuild node_modules/ts-fsrs/dist/index.mjs --minify --format=esm --log-level=warning --outfile="$out/index.mjs"
cp node_modules/ts-fsrs/LICENSE "$out/LICENSE"
