"""The command line as a user meets it: exit statuses, messages, no tracebacks."""

import re
import subprocess
import sys

import pytest
from conftest import ROOT, run_cli, write_files


def test_build_reports_pages_languages_and_time(make_content, tmp_path):
    result = run_cli("build", "--content", make_content(), "--out", tmp_path / "site", "--no-search")
    assert result.status == 0, result.err
    assert result.out.startswith("Built 28 pages in 2 languages in ")  # 22 content pages, and per language the offline page, the flashcards and the exam
    assert (tmp_path / "site/nl/questions/gpu-role/index.html").is_file()


def test_content_errors_exit_1_with_all_diagnostics_and_a_count(make_content, tmp_path):
    content = make_content(**{"topics/basics.yaml": "order: x\nnl: {title: T}\nfr: {title: T, summary: S}\n"})
    result = run_cli("build", "--content", content, "--out", tmp_path / "site")
    assert result.status == 1
    assert "topics/basics.yaml:1:8: error: 'order' must be a number, not 'x' [type.number]" in result.err
    assert "topics/basics.yaml:3:16: error: unknown key 'summary' in the 'fr' block [key.unknown]" in result.err
    assert result.err.rstrip().endswith("Build failed: 2 errors, 0 warnings.")
    assert "Traceback" not in result.err
    assert not (tmp_path / "site").exists()


def test_failed_build_leaves_the_previous_site_untouched(make_content, tmp_path):
    site = tmp_path / "site"
    content = make_content()
    assert run_cli("build", "--content", content, "--out", site, "--no-search").status == 0
    before = {p: p.read_bytes() for p in site.rglob("*") if p.is_file()}
    (content / "questions/gpu-role.yaml").write_text("topic: nowhere\n")
    assert run_cli("build", "--content", content, "--out", site, "--no-search").status == 1
    assert {p: p.read_bytes() for p in site.rglob("*") if p.is_file()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [".site.studysite-lock", "content", "site"]


def test_check_validates_and_writes_nothing(make_content, tmp_path):
    result = run_cli("check", "--content", make_content())
    assert result.status == 0 and result.out.startswith("Checked 28 pages: 0 errors, 0 warnings.")
    assert not (tmp_path / "site").exists()


def test_a_failed_check_or_status_says_so_not_build(make_content):
    content = make_content(**{"topics/basics.yaml": "order: x\nnl: {title: T}\nfr: {title: T}\n"})
    for command, what in (("check", "Check"), ("status", "Status")):
        result = run_cli(command, "--content", content)
        assert result.status == 1, command
        assert result.err.rstrip().endswith(f"{what} failed: 1 error, 0 warnings."), result.err


def test_strict_turns_warnings_into_errors(make_content):
    content = make_content(**{"glossary/gpu.yaml": "nl: {term: GPU, definition: D}\n"})
    assert run_cli("check", "--content", content).status == 0
    strict = run_cli("check", "--content", content, "--strict")
    assert strict.status == 1 and "error: term 'gpu' has no 'fr' text [translation.missing]" in strict.err


def test_usage_errors_exit_2():
    for args in (["build", "--jobs", "0"], ["build", "--jobs", "two"], ["frobnicate"], ["build", "--unknown"]):
        process = subprocess.run([sys.executable, "build.py", *args], cwd=ROOT, capture_output=True, text=True)
        assert process.returncode == 2, args
        assert "Traceback" not in process.stderr


def test_serve_refuses_a_port_outside_1_to_65535_with_status_2(tmp_path):
    for port, message in (
        ("70000", "70000 is not a TCP port"),
        ("0", "0 is not a TCP port"),
        ("-1", "-1 is not a TCP port"),
        ("http", "'http' is not a whole number"),
    ):
        command = [sys.executable, "build.py", "serve", "--port", port, "--out", str(tmp_path / "site")]
        process = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert process.returncode == 2, port
        assert message in process.stderr and "Traceback" not in process.stderr  # our words, whatever argparse puts around them
    assert not (tmp_path / "site").exists()


def test_an_output_folder_the_system_refuses_exits_3_and_names_it(make_content, tmp_path):
    (tmp_path / "notes.txt").write_text("mine")  # a file where the output folder's parent should be
    result = run_cli("build", "--content", make_content(), "--out", tmp_path / "notes.txt" / "site", "--no-search")
    assert result.status == 3
    assert result.err.startswith("error: ") and str(tmp_path / "notes.txt") in result.err and "Traceback" not in result.err
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_refuses_an_output_folder_it_did_not_make(make_content, tmp_path):
    precious = write_files(tmp_path / "home", {"notes.txt": "mine"})
    result = run_cli("build", "--content", make_content(), "--out", precious)
    assert result.status == 2
    assert "holds files that Studysite did not write; nothing was changed" in result.err
    assert (precious / "notes.txt").read_text() == "mine"


def test_the_lock_beside_the_output_is_studysites_own_and_replaces_the_old_one(make_content, tmp_path):
    content = make_content()
    (tmp_path / "uv.lock").write_text("the user's own lock file")
    (tmp_path / "site.lock").write_text('{"manifest": "0", "files": {}}')  # the record an earlier version left
    (tmp_path / "other.lock").write_text('{"manifest": "0"}')
    for out in ("uv", "site", "other"):
        assert run_cli("build", "--content", content, "--out", tmp_path / out, "--no-search").status == 0
    assert (tmp_path / "uv.lock").read_text() == "the user's own lock file"
    assert (tmp_path / "other.lock").read_text() == '{"manifest": "0"}', "a file that is not exactly the old record stays"
    assert not (tmp_path / "site.lock").exists()
    assert sorted(p.name for p in tmp_path.glob(".*-lock")) == [".other.studysite-lock", ".site.studysite-lock", ".uv.studysite-lock"]


def test_a_refused_output_folder_gets_no_lock_file_beside_it(make_content, tmp_path):
    (tmp_path / "home").mkdir()
    (tmp_path / "home/notes.txt").write_text("mine")
    (tmp_path / "afile").write_text("mine")
    for out in ("home", "afile"):
        assert run_cli("build", "--content", make_content(), "--out", tmp_path / out).status == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile", "content", "home"]


@pytest.mark.parametrize("name", ["static", "templates", "locales"])
def test_refuses_an_output_folder_where_the_sites_resources_would_be(make_content, name):
    """Not made yet, but a build reads that folder once it is: the next build would take
    the previous output for the site's own static files, templates or catalogs."""
    content = make_content()
    result = run_cli("build", "--content", content, "--out", content.parent / name, "--no-search")
    assert result.status == 2 and "overlaps" in result.err
    assert not (content.parent / name).exists()


def test_refuses_an_output_folder_inside_the_content(make_content):
    content = make_content()
    result = run_cli("build", "--content", content, "--out", content / "site")
    assert result.status == 2 and "overlaps" in result.err
    assert not (content / "site").exists() and not (content / ".site.studysite-lock").exists()


def test_language_without_catalog_builds_with_english_ui_and_one_warning(make_content, tmp_path):
    site_yaml = "languages: [is, en, sw]\nis: {title: Nám}\nen: {title: Study}\nsw: {title: Somo}\n"
    blocks = {
        "topics/basics.yaml": "is: {title: Grunnatriði}\nen: {title: Basics}\nsw: {title: Misingi}\n",
        "questions/gpu-role.yaml": "topic: basics\nanswer: A\nis: {question: Hvað reiknar GPU?, choices: [Fylki, Ekkert], explanation: GPU reiknar fylki.}\nen: {question: What does a GPU compute?, choices: [Matrices, Nothing], explanation: A GPU computes matrices.}\n",
        "glossary/gpu.yaml": "is: {term: GPU, definition: Skjástýring.}\nen: {term: GPU, definition: Graphics processor.}\nsw: {term: GPU, definition: Kichakataji cha michoro.}\n",
    }
    content = make_content(**{"site.yaml": site_yaml, **blocks})
    result = run_cli("build", "--content", content, "--out", tmp_path / "site", "--no-search")
    assert result.status == 0, result.err
    assert result.err.count("[i18n.catalog-missing]") == 2  # is and sw (Studysite ships no catalog for them); English needs none
    own = (content.parent / "locales/is/LC_MESSAGES/messages.po").as_posix()
    assert f"{own}: warning: no UI translations for 'is'" in result.err  # where `i18n init is` writes it
    assert "warning: question 'gpu-role' has no 'sw' text" in result.err
    page = (tmp_path / "site/sw/questions/gpu-role/index.html").read_text(encoding="utf-8")
    assert '<h1 class="stem" lang="is">Hvað reiknar ' in page
    assert "This question has not been translated yet; it is shown in Kiisilandi." in page
    assert "Show answer and explanation" in page
    icelandic = (tmp_path / "site/is/index.html").read_text(encoding="utf-8")
    assert '<html lang="is" dir="ltr">' in icelandic and ">English</a>" in icelandic and ">Kiswahili</a>" in icelandic


def test_right_to_left_languages_get_dir_rtl(make_content, tmp_path):
    content = make_content(
        **{
            "site.yaml": "languages: [ar]\nar: {title: دراسة}\n",
            "topics/basics.yaml": "ar: {title: أساسيات}\n",
            "questions/gpu-role.yaml": "topic: basics\nanswer: A\nar: {question: سؤال, choices: [أ, ب], explanation: شرح}\n",
            "glossary/gpu.yaml": "ar: {term: GPU, definition: معالج}\n",
        }
    )
    assert run_cli("build", "--content", content, "--out", tmp_path / "site", "--no-search").status == 0
    assert '<html lang="ar" dir="rtl">' in (tmp_path / "site/ar/index.html").read_text(encoding="utf-8")


def test_a_sites_own_templates_override_and_their_errors_are_located(make_content, tmp_path):
    content = make_content()
    write_files(content.parent / "templates", {"home.html": '{% extends "base.html" %}{% block content %}<h1>Own home</h1>{% endblock %}\n'})
    assert run_cli("build", "--content", content, "--out", tmp_path / "site", "--no-search").status == 0
    assert "<h1>Own home</h1>" in (tmp_path / "site/nl/index.html").read_text(encoding="utf-8")
    write_files(content.parent / "templates", {"question.html": '{% extends "base.html" %}\n{% block content %}\n{{ question.nope }\n{% endblock %}\n'})
    for jobs in ("1", "2"):
        result = run_cli("build", "--content", content, "--out", tmp_path / "site", "--no-search", "--jobs", jobs)
        assert result.status == 1
        assert re.search(r"templates/question\.html:3:1: error: template error: .+ \[template\.error\]$", result.err, re.M)  # the rest is Jinja's wording
        assert "Traceback" not in result.err
    assert "<h1>Own home</h1>" in (tmp_path / "site/nl/index.html").read_text(encoding="utf-8")


def test_missing_content_folder_and_bad_base_url(tmp_path):
    result = run_cli("check", "--content", tmp_path / "nowhere")
    assert result.status == 1 and "site.yaml:1:1: error: there is no content folder" in result.err
    process = subprocess.run([sys.executable, "build.py", "--base-url", "example.org/x"], cwd=ROOT, capture_output=True, text=True)
    assert process.returncode == 2 and "is not an absolute http(s) URL" in process.stderr


def test_a_full_disk_leaves_the_previous_site(make_content, tmp_path, monkeypatch):
    import errno

    from studysite.output.write import SiteWriter

    site, content = tmp_path / "site", make_content()
    assert run_cli("build", "--content", content, "--out", site, "--no-search").status == 0
    before = {p: p.read_bytes() for p in site.rglob("*") if p.is_file()}
    (content / "topics/basics.yaml").write_text("nl: {title: Nieuw}\nfr: {title: Nouveau}\n")
    written = []

    def write(self, path, data, key=""):
        written.append(path)
        if len(written) > 5:
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(SiteWriter, "write", write)
    result = run_cli("build", "--content", content, "--out", site, "--no-search")
    assert result.status == 3  # not 1: the content is fine
    assert result.err.strip() == "error: No space left on device; the previous site is unchanged."
    assert {p: p.read_bytes() for p in site.rglob("*") if p.is_file()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [".site.studysite-lock", "content", "site"]


def test_serve_rebuilds_on_change_and_tells_pages_to_reload(make_content, tmp_path):
    import socket
    import time
    import urllib.request

    content = make_content()

    def get(server, port: int, path: str) -> str:
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=2) as response:
                    return response.read().decode()
            except OSError:
                if server.poll() is not None:
                    raise AssertionError(f"serve stopped: {server.communicate()[1]}") from None
                time.sleep(0.1)
        raise AssertionError(f"no answer for {path}")

    for _attempt in range(5):  # a port found free may be taken by another process before serve binds it
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        command = [sys.executable, "build.py", "serve", "--content", str(content), "--out", str(tmp_path / "site"), "--port", str(port)]
        server = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            home = get(server, port, "/nl/")
            break
        except AssertionError as error:  # serve binds its port before it builds: then nothing was built
            if f"port {port} on 127.0.0.1 cannot be used" not in str(error):
                server.terminate()
                server.wait(timeout=10)
                raise
    else:
        raise AssertionError("serve found no port it could use")
    try:
        assert "/__live-reload.js" in home  # serve adds its reload script to the pages it serves
        assert get(server, port, "/__reload") == "1"
        (content / "topics/basics.yaml").write_text("nl: {title: Vernieuwd}\nfr: {title: Renouvelé}\n", encoding="utf-8")
        deadline = time.monotonic() + 60
        while int(get(server, port, "/__reload")) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert "Vernieuwd" in get(server, port, "/nl/topics/basics/")
    finally:
        server.terminate()
        server.wait(timeout=10)
