#!/usr/bin/env python3
"""Write a generated content folder for benchmarks and scale tests.

    python scripts/make_corpus.py OUT --questions 4000 --languages nl,fr,de

The same arguments always give the same files. Question texts name glossary terms, so
the cross-linking work is as real as in hand-written content; a share of explanations
uses Markdown (emphasis, lists, code) so the Markdown parser is exercised too.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

WORDS = (
    "model data memory bandwidth kernel thread tensor matrix layer gradient weight batch cache "
    "latency throughput compiler runtime driver accelerator precision cluster network node"
).split()


def sentence(rng: random.Random, words: int, names: list[str]) -> str:
    chosen = [rng.choice(WORDS) for _ in range(words)]
    if names and rng.random() < 0.5:  # about four glossary terms per question, as in real content
        chosen.insert(rng.randrange(len(chosen)), rng.choice(names))
    return " ".join(chosen).capitalize()


def quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


TYPES = ("single", "multiple", "true-false", "typed", "numeric", "order", "match")
RECORD_LINES = {
    "single": lambda q: [f"answer: {'ABCD'[q % 4]}"],
    "multiple": lambda q: ["type: multiple", f"answer: [A, {'BCD'[q % 3]}]"],
    "true-false": lambda q: ["type: true-false", f"answer: {'true' if q % 2 else 'false'}"],
    "typed": lambda q: ["type: typed"],
    "numeric": lambda q: ["type: numeric", f"answer: {q % 97}.{q % 10}", "tolerance: 0.1"],
    "order": lambda q: ["type: order"],
    "match": lambda q: ["type: match"],
}


def block_lines(kind: str, rng: random.Random, names: list[str], q: int) -> list[str]:
    """The lines of a language block that a question of this type has besides its stem and explanation."""
    if kind in ("single", "multiple"):
        return ["  choices:", *(f"    - {quoted(sentence(rng, 10, names))}" for _ in range(4))]
    if kind == "typed":
        return [f"  accept: [{quoted(rng.choice(WORDS))}, {quoted(rng.choice(WORDS) + str(q))}]"]
    if kind == "numeric":
        return ["  unit: GB"]
    if kind == "order":
        return ["  items:", *(f"    - {quoted(f'Step {n}: ' + sentence(rng, 6, names))}" for n in range(4))]
    if kind == "match":
        return ["  pairs:", *(f"    - [{quoted(f'Left {n} ' + rng.choice(WORDS))}, {quoted(f'Right {n} ' + sentence(rng, 5, names))}]" for n in range(3))]
    return []


def write_corpus(out: Path, questions: int, languages: list[str], seed: int = 1, mixed: bool = False) -> None:
    """mixed: the questions cycle through every question type, not single-answer ones only."""
    rng = random.Random(seed)
    topics = max(2, questions // 200)
    terms = max(12, min(600, questions // 10))
    (out / "topics").mkdir(parents=True, exist_ok=True)
    (out / "glossary").mkdir(exist_ok=True)
    (out / "comparisons").mkdir(exist_ok=True)
    site = [f"languages: [{', '.join(languages)}]", "term_language: ja", "base_url: https://example.org/corpus/"]
    site += [f"{lang}: {{title: Corpus {lang}, description: Generated study site.}}" for lang in languages]
    (out / "site.yaml").write_text("\n".join(site) + "\n", encoding="utf-8")
    for t in range(topics):
        blocks = [f"{lang}: {{title: Topic {t} {lang}, description: {quoted(sentence(rng, 12, []))}}}" for lang in languages]
        (out / "topics" / f"topic-{t}.yaml").write_text(f"order: {t}\n" + "\n".join(blocks) + "\n", encoding="utf-8")
    names = {lang: [f"term{i}{lang}" for i in range(terms)] for lang in languages}
    for i in range(terms):
        related = sorted({f"term-{rng.randrange(terms)}" for _ in range(2)} - {f"term-{i}"})
        lines = [f"related: [{', '.join(related)}]", f"ja: {{term: 用語{i}}}"]
        lines += [f"{lang}: {{term: {names[lang][i]}, definition: {quoted(sentence(rng, 20, []))}}}" for lang in languages]
        (out / "glossary" / f"term-{i}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for q in range(questions):
        topic = f"topic-{q % topics}"
        folder = out / "questions" / topic
        folder.mkdir(parents=True, exist_ok=True)
        kind = TYPES[q % len(TYPES)] if mixed else "single"
        lines = [f"topic: {topic}", *RECORD_LINES[kind](q), f"terms: [term-{rng.randrange(terms)}]"]
        for lang in languages:
            explanation = " ".join(sentence(rng, 18, names[lang]) + "." for _ in range(4))
            if q % 5 == 0:
                explanation = f"*{explanation}*\n\n- first `code`\n- second"
            lines.append(f"{lang}:")
            lines.append(f"  question: {quoted(sentence(rng, 14, names[lang]) + ('?' if kind != 'typed' else ' ___.'))}")
            lines += block_lines(kind, rng, names[lang], q)
            lines.append("  explanation: |")
            lines += [f"    {line}" if line else "" for line in explanation.splitlines()]
        (folder / f"q-{q}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for c in range(topics):
        columns = [f"term-{(c * 3 + k) % terms}" for k in range(3)]
        lines = [f"topic: topic-{c}", f"terms: [{', '.join(columns)}]"]
        for lang in languages:
            lines += [f"{lang}:", f"  title: Comparison {c}", "  aspects:"]
            lines += [f"    - {{label: Aspect {a}, values: [one, two, three]}}" for a in range(3)]
        (out / "comparisons" / f"comparison-{c}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--questions", type=int, default=4000)
    parser.add_argument("--languages", default="nl,fr,de")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mixed", action="store_true", help="questions of every type, in turn (default: single-answer ones)")
    args = parser.parse_args()
    write_corpus(args.out, args.questions, args.languages.split(","), args.seed, args.mixed)
    print(f"Wrote {args.questions} questions in {args.languages} to {args.out}")


if __name__ == "__main__":
    main()
