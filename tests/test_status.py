"""Translation status: missing and outdated records, missing and fuzzy UI messages."""

import os
import re
import subprocess

from conftest import ROOT, run_cli

GIT_ENV = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}


def git(folder, *args, date="2026-01-01T00:00:00"):
    env = {**GIT_ENV, "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
    subprocess.run(["git", *args], cwd=folder, env=env, check=True, capture_output=True)


def test_missing_records_and_ui_messages_are_listed(make_content, tmp_path):
    content = make_content(**{"glossary/gpu.yaml": "nl: {term: GPU, definition: D}\n"})
    locales = tmp_path / "locales/fr/LC_MESSAGES"
    locales.mkdir(parents=True)
    po = (ROOT / "locales/fr/LC_MESSAGES/messages.po").read_text(encoding="utf-8")
    po = po.replace('msgstr "Rechercher"', 'msgstr ""').replace("#: templates/practice.html", "#, fuzzy\n#: templates/practice.html", 1)
    (locales / "messages.po").write_text(po, encoding="utf-8")
    result = run_cli("status", "--content", content)
    assert result.status == 0, result.err
    fr = result.out.split("\nfr: ")[1]
    counts = re.match(r"content 2/3 translated, 1 missing, 0 outdated; UI (\d+)/(\d+) translated, 1 missing, 1 fuzzy", fr)
    assert counts and int(counts[1]) == int(counts[2]) - 2, fr.splitlines()[0]
    assert "  missing: glossary/gpu (glossary/gpu.yaml)" in fr
    assert '  UI missing: "Search"' in fr
    assert "(outdated records are found with git" in result.out
    strict = run_cli("status", "--content", content, "--strict")
    assert strict.status == 1 and "Translations incomplete: fr." in strict.err


def test_a_record_whose_source_changed_after_its_translation_is_outdated(make_content):
    content = make_content()
    git(content, "init", "-q")
    git(content, "add", ".")
    git(content, "commit", "-qm", "first")
    term = content / "glossary/gpu.yaml"
    term.write_text(term.read_text().replace("Grafische processor.", "Grafische processor met duizenden kernen."))
    git(content, "commit", "-qam", "nl changed", date="2026-02-01T00:00:00")
    result = run_cli("status", "--content", content)
    assert "fr: content 2/3 translated, 0 missing, 1 outdated" in result.out
    assert "  outdated: glossary/gpu (glossary/gpu.yaml): its nl text changed after it was translated" in result.out
    term.write_text(term.read_text().replace("Processeur graphique.", "Processeur graphique à milliers de cœurs."))
    assert "fr: content 3/3 translated, 0 missing, 0 outdated" in run_cli("status", "--content", content).out


def test_status_page_per_language_is_linked_from_the_footer(sample_site):
    page = (sample_site / "fr/status/index.html").read_text(encoding="utf-8")
    assert "<h1>État des traductions</h1>" in page and "<td>45 / 45</td>" in page
    assert '<a href="../../../fr/status/">État des traductions</a>' in (sample_site / "fr/glossary/gpu/index.html").read_text(encoding="utf-8")
