#!/usr/bin/env python3
"""Time Studysite on a generated corpus: whole commands, several runs, medians.

    python scripts/benchmark.py [--questions 4000] [--languages nl,fr,de] [--runs 5]

Scenarios: `check`; a cold build into an empty folder; a rebuild with nothing changed;
a rebuild after one question changed; a cold build with --jobs 1 (the default is one
process per CPU); a cold build with the search index. Cold builds also delete the build
cache (STUDYSITE_CACHE_DIR, pointed into the work folder). For a comparison with Hugo on
the same pages, see the shared yardstick compare.py described in README. Each is run as its own process; the table gives median and range of wall
time, and the largest peak memory (resident set) over the runs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from make_corpus import write_corpus  # noqa: E402


def run(command: list[str]) -> tuple[float, int]:
    """Wall seconds and peak resident memory (KiB) of one command."""
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {' '.join(command)}\n{process.stderr.read().decode()}")
    return seconds, usage.ru_maxrss


def scenario(name: str, runs: int, prepare, command: list[str]) -> tuple[str, list[float], int]:
    times, memory = [], 0
    for _ in range(runs):
        prepare()
        seconds, peak = run(command)
        times.append(seconds)
        memory = max(memory, peak)
    return name, times, memory


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=4000)
    parser.add_argument("--languages", default="nl,fr,de")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="studysite-bench-"))
    content, out = work / "content", work / "site"
    write_corpus(content, args.questions, args.languages.split(","))
    build = [sys.executable, "build.py", "build", "--content", str(content), "--out", str(out)]
    edited = next((content / "questions").rglob("*.yaml"))
    original = edited.read_text(encoding="utf-8")

    os.environ["STUDYSITE_CACHE_DIR"] = str(work / "cache")

    def fresh():
        shutil.rmtree(out, ignore_errors=True)
        shutil.rmtree(work / "cache", ignore_errors=True)

    def built():
        if not out.exists():
            subprocess.run([*build, "--no-search"], check=True, capture_output=True)

    def edit():
        built()
        text = edited.read_text(encoding="utf-8")
        edited.write_text(text.replace("explanation: |", "explanation: |\n    Edited.", 1) if text == original else original, encoding="utf-8")

    results = [
        scenario("check", args.runs, lambda: None, [sys.executable, "build.py", "check", "--content", str(content)]),
        scenario("cold build", args.runs, fresh, [*build, "--no-search"]),
        scenario("rebuild, nothing changed", args.runs, built, [*build, "--no-search"]),
        scenario("rebuild, one question changed", args.runs, edit, [*build, "--no-search"]),
        scenario("cold build, --jobs 1", args.runs, fresh, [*build, "--no-search", "--jobs", "1"]),
        scenario("cold build with search index", args.runs, fresh, build),
    ]
    pages = sum(1 for _ in out.rglob("index.html"))
    print(f"corpus: {args.questions} questions in {args.languages} ({pages} pages), {args.runs} runs each, {os.cpu_count()} cores")
    print(f"{'scenario':34} {'median s':>9} {'min s':>7} {'max s':>7} {'peak MiB':>9}")
    for name, times, memory in results:
        print(f"{name:34} {statistics.median(times):9.2f} {min(times):7.2f} {max(times):7.2f} {memory / 1024:9.0f}")
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
