"""Translation status: missing and outdated records, missing and fuzzy UI messages."""

import os
import subprocess

from babel.messages.pofile import read_po
from conftest import ROOT, run_cli

from studysite import pipeline
from studysite.diagnostics import Report
from studysite.i18n import status
from studysite.incremental.cache import BuildCache

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
    with (ROOT / "locales/messages.pot").open("rb") as pot:
        total = sum(1 for message in read_po(pot) if message.id)  # the templates' messages, whatever their number
    # the site's own catalog leaves two messages untranslated: Studysite's shipped one has them
    assert fr.startswith(f"content 2/3 translated, 1 missing, 0 outdated; UI {total}/{total} translated, 0 missing, 0 fuzzy")
    assert "  missing: glossary/gpu (glossary/gpu.yaml)" in fr
    assert "(outdated records are found with git" in result.out
    strict = run_cli("status", "--content", content, "--strict")
    assert strict.status == 1 and "Translations incomplete: fr." in strict.err


def test_missing_and_fuzzy_ui_messages_of_a_language_studysite_does_not_ship(make_content, tmp_path):
    content = make_content(**{"site.yaml": "languages: [nl, eu]\nnl: {title: S}\n"})
    locales = tmp_path / "locales/eu/LC_MESSAGES"
    locales.mkdir(parents=True)
    po = (ROOT / "locales/fr/LC_MESSAGES/messages.po").read_text(encoding="utf-8").replace("Language: fr", "Language: eu")
    po = po.replace('msgstr "Rechercher"', 'msgstr ""').replace("#: templates/practice.html", "#, fuzzy\n#: templates/practice.html", 1)
    (locales / "messages.po").write_text(po, encoding="utf-8")
    eu = run_cli("status", "--content", content).out.split("\neu: ")[1]
    with (ROOT / "locales/messages.pot").open("rb") as pot:
        total = sum(1 for message in read_po(pot) if message.id)
    assert eu.startswith(f"content 0/3 translated, 3 missing, 0 outdated; UI {total - 2}/{total} translated, 1 missing, 1 fuzzy")
    assert '  UI missing: "Search"' in eu


def test_a_message_in_a_context_is_looked_up_in_its_context(make_content, tmp_path):
    """pgettext("kind of page", "Question") has a catalog entry of its own, apart from any
    "Question" without a context: translated, it is not missing; left empty, it is listed
    with its context."""
    content = make_content(**{"site.yaml": "languages: [nl, eu]\nnl: {title: S}\n"})
    locales = tmp_path / "locales/eu/LC_MESSAGES"
    locales.mkdir(parents=True)
    po = (ROOT / "locales/fr/LC_MESSAGES/messages.po").read_text(encoding="utf-8").replace("Language: fr", "Language: eu")
    translated = 'msgctxt "kind of page"\nmsgid "Question"\nmsgstr "Question"\n'
    assert translated in po and 'msgctxt "kind of page"\nmsgid "Term"\nmsgstr "Terme"\n' in po
    (locales / "messages.po").write_text(po.replace(translated, 'msgctxt "kind of page"\nmsgid "Question"\nmsgstr ""\n'), encoding="utf-8")
    eu = run_cli("status", "--content", content).out.split("\neu: ")[1]
    with (ROOT / "locales/messages.pot").open("rb") as pot:
        total = sum(1 for message in read_po(pot) if message.id)
    assert f"UI {total - 1}/{total} translated, 1 missing, 0 fuzzy" in eu
    assert '  UI missing: "Question" (context: kind of page)' in eu


def test_the_interfaces_gaps_are_one_warning_per_language_with_their_count_and_fail_only_strict(make_content, tmp_path):
    """Like a record not yet translated, an interface message not yet translated is a gap
    a deploy publishes (in English): one warning per language, not one per message."""
    content = make_content(
        **{
            "site.yaml": "languages: [nl, eu, fr]\nnl: {title: S}\neu: {title: S}\nfr: {title: S}\n",
            "topics/basics.yaml": "nl: {title: T}\neu: {title: T}\nfr: {title: T}\n",
            "questions/gpu-role.yaml": "topic: basics\nanswer: A\n"
            + "".join(f"{lang}: {{question: Q, choices: [a, b], explanation: E}}\n" for lang in ("nl", "eu", "fr")),
            "glossary/gpu.yaml": "nl: {term: GPU, definition: D}\neu: {term: GPU, definition: D}\nfr: {term: GPU, definition: D}\n",
        }
    )
    locales = tmp_path / "locales/eu/LC_MESSAGES"
    locales.mkdir(parents=True)
    po = (ROOT / "locales/fr/LC_MESSAGES/messages.po").read_text(encoding="utf-8").replace("Language: fr", "Language: eu")
    po = po.replace('msgstr "Rechercher"', 'msgstr ""').replace('msgstr "Glossaire"', 'msgstr ""')
    (locales / "messages.po").write_text(po.replace("#: templates/practice.html", "#, fuzzy\n#: templates/practice.html", 1), encoding="utf-8")
    with (ROOT / "locales/messages.pot").open("rb") as pot:
        total = sum(1 for message in read_po(pot) if message.id)
    built = run_cli("build", "--content", content, "--out", tmp_path / "site", "--no-search")
    assert built.status == 0, built.err
    gaps = [line.partition(str(tmp_path) + "/")[2] for line in built.err.splitlines() if "[i18n.ui-incomplete]" in line]
    assert gaps == [
        f"locales/eu/LC_MESSAGES/messages.po: warning: 3 of {total} interface messages are not translated into 'eu' (2 missing, 1 fuzzy): "
        "its pages show them in English [i18n.ui-incomplete]"
    ], built.err  # none for fr, whose shipped catalog is complete
    assert ">Search<" in (tmp_path / "site/eu/index.html").read_text(encoding="utf-8")
    check = run_cli("check", "--content", content)
    assert check.status == 0 and "[i18n.ui-incomplete]" in check.err
    strict = run_cli("check", "--content", content, "--strict")
    assert strict.status == 1 and "error: 3 of" in strict.err


def test_a_record_whose_source_changed_after_its_translation_is_outdated(make_content):
    content = make_content()
    term = committed_twice(content)
    result = run_cli("status", "--content", content)
    assert "fr: content 2/3 translated, 0 missing, 1 outdated" in result.out
    assert "  outdated: glossary/gpu (glossary/gpu.yaml): its nl text changed after it was translated" in result.out
    term.write_text(term.read_text(encoding="utf-8").replace("Processeur graphique.", "Processeur graphique à milliers de cœurs."), encoding="utf-8")
    assert "fr: content 3/3 translated, 0 missing, 0 outdated" in run_cli("status", "--content", content).out


def test_status_page_per_language_is_linked_from_the_footer(sample_site):
    page = (sample_site / "fr/status/index.html").read_text(encoding="utf-8")
    assert "<h1>État des traductions</h1>" in page and "<td>45 / 45</td>" in page
    assert '<a href="../../../fr/status/">État des traductions</a>' in (sample_site / "fr/glossary/gpu/index.html").read_text(encoding="utf-8")


def count_git_work(monkeypatch) -> dict[str, list]:
    """Counts i18n/status.py's git processes: the blames (by file) and every other git call."""
    calls: dict[str, list] = {"blame": [], "git": []}
    line_times, git_call = status.line_times, status._git

    def counted_blame(path):
        calls["blame"].append(path.name)
        return line_times(path)

    def counted_git(folder, *args):
        calls["git"].append(args[0])
        return git_call(folder, *args)

    monkeypatch.setattr(status, "line_times", counted_blame)
    monkeypatch.setattr(status, "_git", counted_git)
    return calls


def committed_twice(content):
    """The content in git, with the nl text of glossary/gpu.yaml changed by a later commit."""
    git(content, "init", "-q")
    git(content, "add", ".")
    git(content, "commit", "-qm", "first")
    term = content / "glossary/gpu.yaml"
    term.write_text(term.read_text().replace("Grafische processor.", "Grafische processor met duizenden kernen."))
    git(content, "commit", "-qam", "nl changed", date="2026-02-01T00:00:00")
    return term


def fr_status_page(site) -> str:
    return (site / "fr/status/index.html").read_text(encoding="utf-8")


def test_checking_the_content_runs_no_git(make_content, monkeypatch):
    content = make_content()
    committed_twice(content)
    calls = count_git_work(monkeypatch)
    assert run_cli("check", "--content", content).status == 0
    assert calls == {"blame": [], "git": []}


def test_git_blames_only_files_edited_since_the_last_run(make_content, tmp_path, monkeypatch):
    content = make_content()
    term = committed_twice(content)
    calls = count_git_work(monkeypatch)
    # forked render workers: the status is worked out once, before they fork (a blame in one would not count here)
    assert run_cli("build", "--content", content, "--out", tmp_path / "first", "--no-search", "--jobs", "3").status == 0
    assert calls["blame"] == ["gpu.yaml"]  # the only file with lines of different ages
    assert "glossary/gpu.yaml" in fr_status_page(tmp_path / "first")

    calls["blame"].clear()
    assert run_cli("build", "--content", content, "--out", tmp_path / "second", "--no-search").status == 0
    assert calls["blame"] == []  # the same commit, no file changed: what git said is in the cache
    assert fr_status_page(tmp_path / "second") == fr_status_page(tmp_path / "first")
    result = run_cli("status", "--content", content)
    assert calls["blame"] == [] and "  outdated: glossary/gpu (glossary/gpu.yaml)" in result.out

    term.write_text(term.read_text(encoding="utf-8").replace("Processeur graphique.", "Processeur graphique à milliers de cœurs."), encoding="utf-8")
    assert run_cli("build", "--content", content, "--out", tmp_path / "second", "--no-search").status == 0
    assert calls["blame"] == ["gpu.yaml"]  # changed since the commit: blamed again
    assert "glossary/gpu.yaml" not in fr_status_page(tmp_path / "second")
    assert "fr: content 3/3 translated, 0 missing, 0 outdated" in run_cli("status", "--content", content).out
    assert calls["blame"] == ["gpu.yaml"]


def test_a_new_commit_is_blamed_anew(make_content, tmp_path, monkeypatch):
    content = make_content()
    term = committed_twice(content)
    assert "fr: content 2/3 translated, 0 missing, 1 outdated" in run_cli("status", "--content", content).out
    term.write_text(term.read_text(encoding="utf-8").replace("Processeur graphique.", "Processeur graphique à milliers de cœurs."), encoding="utf-8")
    git(content, "commit", "-qam", "fr changed", date="2026-03-01T00:00:00")
    calls = count_git_work(monkeypatch)
    assert "fr: content 3/3 translated, 0 missing, 0 outdated" in run_cli("status", "--content", content).out
    assert calls["blame"] == ["gpu.yaml"] and "log" in calls["git"]


def test_a_damaged_history_in_the_cache_is_not_trusted(make_content):
    content = make_content()
    committed_twice(content)
    options = pipeline.Options(content_dir=content)
    for history in ({"head": "x", "revised": 5, "files": []}, {"files": {"glossary/gpu.yaml": {"key": "k", "outdated": []}}}):
        cache = BuildCache(None, history={"git": history})
        fr = pipeline.load(options, Report(), cache).statuses.of("fr")
        assert [ref.id for ref in fr.outdated] == ["gpu"]
        assert "fr" in cache.history["git"]["files"]["glossary/gpu.yaml"]["outdated"]  # replaced by what git says
