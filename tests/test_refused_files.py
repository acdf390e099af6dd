"""Files a build refuses to read, each a located error: a special file (a FIFO, a device),
one larger than its kind may hold, or a link out of the folder it is in (content, static,
templates, locales), which would publish what is outside the site."""

import os

import pytest
from conftest import QUESTION_YAML, run_cli

from studysite.fileio import MAX_TEXT


def build(content, site):
    return run_cli("build", "--content", content, "--out", site, "--no-search")


def fifo(path):
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)


@pytest.mark.parametrize(
    ("kind", "name", "code"),
    [
        ("fifo", "questions/pipe.yaml", "file.special"),
        ("link to a fifo inside", "questions/pipe.yaml", "file.special"),
        ("link to a device", "questions/zero.yaml", "file.outside"),
        ("link outside", "questions/secret.yaml", "file.outside"),
        ("too large", "questions/big.yaml", "file.too-large"),
        ("fifo", "site.yaml", "file.special"),
    ],
)
def test_a_content_file_a_build_refuses_is_a_located_error(make_content, tmp_path, kind, name, code):
    content = make_content()
    path = content / name
    if kind == "fifo":
        path.unlink(missing_ok=True)
        fifo(path)
    elif kind == "link to a fifo inside":
        fifo(content / "questions/.pipe")
        path.symlink_to(".pipe")
    elif kind == "link to a device":
        path.symlink_to("/dev/zero")
    elif kind == "link outside":
        (tmp_path / "outside.yaml").write_text(QUESTION_YAML)  # a record: it would become pages
        path.symlink_to(tmp_path / "outside.yaml")
    else:
        path.write_text(QUESTION_YAML + "# " + "x" * MAX_TEXT + "\n")
    result = build(content, tmp_path / "site")
    assert result.status == 1 and "Traceback" not in result.err, result.err
    assert f"{name}:1:1: error: " in result.err and f"[{code}]" in result.err
    assert not (tmp_path / "site").exists()


@pytest.mark.parametrize(("kind", "code"), [("link outside", "file.outside"), ("fifo", "file.special")])
def test_a_static_file_a_build_refuses_is_a_located_error_and_never_published(make_content, tmp_path, kind, code):
    content = make_content()
    notes = tmp_path / "static/notes.txt"
    if kind == "fifo":
        fifo(notes)
    else:
        (tmp_path / "secret.txt").write_text("secret")
        notes.parent.mkdir()
        notes.symlink_to(tmp_path / "secret.txt")
    for command in ("check", "build"):
        result = run_cli(command, "--content", content, *(["--out", tmp_path / "site", "--no-search"] if command == "build" else []))
        assert result.status == 1 and "static/notes.txt:1:1: error: " in result.err and f"[{code}]" in result.err, result.err
    assert not (tmp_path / "site").exists()


def test_a_link_inside_a_static_folder_to_a_file_of_it_is_followed(make_content, tmp_path):
    content = make_content()
    (tmp_path / "static").mkdir()
    (tmp_path / "static/notes.txt").write_text("notes")
    (tmp_path / "static/same.txt").symlink_to("notes.txt")
    assert build(content, tmp_path / "site").status == 0
    assert [p.read_text() for p in (tmp_path / "site/assets").glob("same.*.txt")] == ["notes"]


@pytest.mark.parametrize(("kind", "code"), [("link outside", "file.outside"), ("fifo", "file.special")])
def test_a_template_a_build_refuses_is_a_located_error(make_content, tmp_path, kind, code):
    content = make_content()
    template = tmp_path / "templates/question.html"
    if kind == "fifo":
        fifo(template)
    else:
        template.parent.mkdir()
        (tmp_path / "elsewhere.html").write_text("{{ secret }}")
        template.symlink_to(tmp_path / "elsewhere.html")
    result = build(content, tmp_path / "site")
    assert result.status == 1 and "templates/question.html:1:1: error: " in result.err and f"[{code}]" in result.err, result.err
    assert "Traceback" not in result.err


@pytest.mark.parametrize(("name", "kind", "code"), [("messages.po", "link to a device", "file.outside"), ("messages.po", "fifo", "file.special"), ("content.po", "fifo", "file.special")])
def test_a_catalog_a_build_refuses_is_a_located_error(make_content, tmp_path, name, kind, code):
    content = make_content()
    catalog = tmp_path / "locales/fr/LC_MESSAGES" / name
    if kind == "fifo":
        fifo(catalog)
    else:
        catalog.parent.mkdir(parents=True)
        catalog.symlink_to("/dev/zero")
    result = build(content, tmp_path / "site")
    assert result.status == 1 and f"locales/fr/LC_MESSAGES/{name}:1:1: error: " in result.err and f"[{code}]" in result.err, result.err
    assert "Traceback" not in result.err
