#!/usr/bin/env python3
"""How long `studysite import` takes for a CSV of many rows (10,000 by default): a site
with two languages and one topic is made in a temporary folder, a CSV of questions of every
type written, and the import run in this process, cold. The issue's goal: under 5 s.

    python scripts/bench_import.py [ROWS]
"""

from __future__ import annotations

import csv
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from studysite.exchange.importing import ImportOptions, import_file  # noqa: E402

HEADER = ["id", "topic", "type", "answer", "tolerance"] + [
    f"{language}.{field}"
    for language in ("nl", "fr")
    for field in ("question", "choice.1", "choice.2", "choice.3", "feedback.1", "explanation", "accept", "unit", "items", "pairs")
]


def row(number: int) -> list[str]:
    kind = ("single", "multiple", "true-false", "typed", "numeric", "order", "match")[number % 7]
    answer = {"single": "B", "multiple": "A,C", "true-false": "true", "numeric": "9.81"}.get(kind, "")
    cells = [f"q-{number}", "basics", kind, answer, "0.05" if kind == "numeric" else ""]
    for language in ("nl", "fr"):
        choices = [f"Keuze {n} van {number}" for n in (1, 2, 3)] if kind in ("single", "multiple") else ["", "", ""]
        cells += [
            f"Vraag {number} in {language}: hoeveel is *{number}* keer $x^{{{number}}}$?",
            *choices,
            "Niet helemaal." if kind in ("single", "multiple") else "",
            f"Omdat {number} zo is.\n\nEen tweede alinea.",
            f"{number}|{number}.0" if kind == "typed" else "",
            "m/s²" if kind == "numeric" else "",
            f"een {number}|twee {number}|drie {number}" if kind == "order" else "",
            f"links {number} = rechts {number} | boven = onder" if kind == "match" else "",
        ]
    return cells


def main() -> None:
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        content = root / "content"
        (content / "topics").mkdir(parents=True)
        (content / "site.yaml").write_text("languages: [nl, fr]\nnl: {title: Studie}\nfr: {title: Étude}\n", encoding="utf-8")
        (content / "topics" / "basics.yaml").write_text("nl: {title: Basis}\nfr: {title: Bases}\n", encoding="utf-8")
        source = root / "questions.csv"
        with source.open("w", newline="", encoding="utf-8") as file:
            csv.writer(file).writerows([HEADER, *(row(number) for number in range(rows))])
        started, cpu = time.perf_counter(), _cpu()
        result = import_file(ImportOptions(source, content))
        seconds, cpu = time.perf_counter() - started, _cpu() - cpu
        written = sum(1 for _ in (content / "questions").rglob("*.yaml"))
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0
        print(
            f"{rows} rows: {len(result.outputs)} files planned, {written} written, in {seconds:.2f} s ({rows / seconds:,.0f} rows/s); CPU {cpu:.2f} s (with forked workers); load average {load:.1f}"
        )


def _cpu() -> float:
    """CPU seconds of this process and its ended children: what a loaded machine does not inflate."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


if __name__ == "__main__":
    main()
