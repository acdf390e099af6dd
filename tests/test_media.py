"""Media: images and audio named by the content are found beside their record or under the
content folder, checked, published under fingerprinted names with their sizes, shipped in
the Anki decks and listed for offline reading; nothing outside the content folder is ever
read or published, whatever the content names."""

import hashlib
import io
import json
import os
import re
import sqlite3
import zipfile
from pathlib import Path

import pytest
from conftest import png, run_cli, write_files

from studysite.content import media_formats
from studysite.content.media import MAX_READ, MediaLibrary, read_confined, resolve
from studysite.content.media_formats import MediaProblem

SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 80"><circle cx="60" cy="40" r="30"/></svg>'
MP3 = b"ID3\x04\x00\x00\x00\x00\x00\x00" + b"\xff\xfb\x90\x00" * 64
OGG = b"OggS\x00\x02" + b"\x00" * 64

QUESTION = """\
topic: basics
answer: B
nl:
  question: Wat toont ![een cel met een kern](cell.svg)?
  choices: [Niets, Een cel]
  explanation: Zie ook ![de kern](/media/nucleus.png).
  audio: question.mp3
fr:
  question: Que montre ![une cellule avec un noyau](cell.svg) ?
  choices: [Rien, Une cellule]
  explanation: Voir aussi ![le noyau](/media/nucleus.png).
"""
TERM = """\
ja: {term: GPU}
nl: {term: GPU, definition: Grafische processor., audio: ../media/gpu.ogg}
fr: {term: GPU, definition: Processeur graphique.}
"""


def media_site(make_content, **overrides: str) -> Path:
    """A valid site whose question shows an SVG beside it and a PNG under media/, and plays
    an MP3; whose term plays an Ogg file."""
    content = make_content(**{"questions/gpu-role.yaml": QUESTION, "glossary/gpu.yaml": TERM, **overrides})
    (content / "questions/cell.svg").write_text(SVG, encoding="utf-8")
    (content / "media").mkdir(exist_ok=True)
    (content / "media/nucleus.png").write_bytes(png(40, 30))
    (content / "questions/question.mp3").write_bytes(MP3)
    (content / "media/gpu.ogg").write_bytes(OGG)
    return content


def check(content: Path):
    return run_cli("check", "--content", content)


# -- paths ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "reference,expected",
    [
        ("cell.svg", "questions/biology/cell.svg"),
        ("./img/cell.svg", "questions/biology/img/cell.svg"),
        ("../cell.svg", "questions/cell.svg"),
        ("../../media/cell.svg", "media/cell.svg"),
        ("/media/cell.svg", "media/cell.svg"),
        ("//media/cell.svg", "media/cell.svg"),
        ("/etc/passwd", "etc/passwd"),  # under the content folder, where it is not
    ],
)
def test_a_path_is_taken_from_the_records_folder_or_from_the_content_folder(reference, expected):
    assert resolve(reference, "questions/biology/q.yaml") == expected


@pytest.mark.parametrize("reference", ["../../../cell.svg", "../../../../etc/passwd", "/../x.png", "../../..", "a/../../../../x.png"])
def test_a_path_that_leaves_the_content_folder_is_refused(reference):
    problem = resolve(reference, "questions/biology/q.yaml")
    assert isinstance(problem, MediaProblem) and problem.code == "media.outside"


def test_a_path_from_site_yaml_is_taken_from_the_content_folder():
    assert resolve("media/logo.svg", "site.yaml") == "media/logo.svg"
    assert isinstance(resolve("../logo.svg", "site.yaml"), MediaProblem)
    assert resolve("media\\logo.svg", "site.yaml").code == "media.path"


def test_nothing_outside_the_folder_nor_any_special_file_is_opened(tmp_path):
    root = tmp_path / "content"
    root.mkdir()
    (tmp_path / "secret.png").write_bytes(png())
    os.symlink(tmp_path / "secret.png", root / "out.png")
    os.symlink("/dev/zero", root / "zero.png")
    os.mkfifo(root / "fifo.png")  # opening it to read would wait for a writer for ever
    (root / "folder.png").mkdir()
    (root / "inside.png").write_bytes(png())
    os.symlink("inside.png", root / "alias.png")
    real = os.path.realpath(root)
    for name, code in [("out.png", "media.outside"), ("zero.png", "media.outside"), ("fifo.png", "media.special"), ("folder.png", "media.special")]:
        with pytest.raises(OSError) as refused:
            read_confined(real, name)
        assert refused.value.code == code, name
    assert read_confined(real, "alias.png") == png()  # a link inside the folder is followed
    with pytest.raises(FileNotFoundError):
        read_confined(real, "none.png")


def test_a_file_over_the_limit_is_refused_unread(tmp_path, monkeypatch):
    root = tmp_path / "content"
    root.mkdir()
    with (root / "huge.png").open("wb") as file:
        file.truncate(MAX_READ + 1)  # sparse: no disk, yet its size
    reads = []
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: reads.append(n) or real_read(fd, n))
    with pytest.raises(OSError) as refused:
        read_confined(os.path.realpath(root), "huge.png")
    assert refused.value.code == "media.too-large" and reads == []


# -- formats and sizes -------------------------------------------------------------------


def jpeg(width: int, height: int, orientation: int | None = None) -> bytes:
    from PIL import Image

    image, out = Image.new("RGB", (width, height), "white"), io.BytesIO()
    exif = Image.Exif()
    if orientation:
        exif[0x0112] = orientation
    image.save(out, format="JPEG", exif=exif.tobytes())
    return out.getvalue()


def test_raster_sizes_come_from_the_files_header():
    assert media_formats.check_format(png(40, 30), "png") == ((40, 30), ())
    assert media_formats.check_format(jpeg(40, 30), "jpg") == ((40, 30), ())
    assert media_formats.check_format(jpeg(40, 30, orientation=6), "jpeg") == ((30, 40), ())  # turned a quarter, as a browser shows it


@pytest.mark.parametrize(
    "svg,size",
    [
        ('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"/>', (200, 100)),
        ('<svg xmlns="http://www.w3.org/2000/svg" width="2in" height="1in"/>', (192, 96)),
        ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 150"/>', (300, 150)),
        ('<svg xmlns="http://www.w3.org/2000/svg" width="100%" viewBox="0,0,30,10"/>', (30, 10)),
        ('<svg xmlns="http://www.w3.org/2000/svg" width="60" viewBox="0 0 30 10"/>', (60, 20)),
    ],
)
def test_an_svgs_size_comes_from_its_width_and_height_or_its_view_box(svg, size):
    assert media_formats.svg_size(svg.encode()) == (size, ())


@pytest.mark.parametrize(
    "data,extension",
    [(png(), "jpg"), (jpeg(4, 3), "png"), (b"GIF89a not really", "png"), (b"plain text", "webp"), (png(), "mp3"), (MP3, "ogg"), (OGG, "wav"), (b"x", "m4a")],
)
def test_bytes_that_are_not_their_extensions_format_are_an_error(data, extension):
    _, problems = media_formats.check_format(data, extension)
    assert [problem.code for problem in problems] == ["media.format"] and not problems[0].warning


@pytest.mark.parametrize(
    "svg,code,warning",
    [
        ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><script>alert(1)</script></svg>', "media.svg-script", False),
        ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1" onload="alert(1)"/>', "media.svg-script", False),
        ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><a href="javascript:alert(1)"><rect/></a></svg>', "media.svg-script", False),
        ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><image href="https://example.org/x.png"/></svg>', "media.svg-external", True),
        ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><style>@import url(x.css);</style></svg>', "media.svg-external", True),
        ('<!DOCTYPE svg [<!ENTITY a "aa">]><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1">&a;</svg>', "media.format", False),
        ('<html xmlns="http://www.w3.org/1999/xhtml"/>', "media.format", False),
        ("<svg", "media.format", False),
        ('<svg xmlns="http://www.w3.org/2000/svg"/>', "media.size", True),
    ],
)
def test_svg_problems(svg, code, warning):
    _, problems = media_formats.svg_size(svg.encode())
    assert [(problem.code, problem.warning) for problem in problems] == [(code, warning)]


def test_an_svg_that_refers_only_to_itself_is_fine():
    svg = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 1 1"><use xlink:href="#a"/><image href="data:image/png;base64,AAAA"/></svg>'
    assert media_formats.svg_size(svg.encode()) == ((1, 1), ())


def test_the_library_reads_each_file_once_and_names_it_by_its_bytes(tmp_path):
    (tmp_path / "media").mkdir()
    (tmp_path / "media/a b.png").write_bytes(png(8, 6))
    library = MediaLibrary(tmp_path)
    first, problems = library.find("../media/a b.png", "questions/q.yaml", "image")
    assert problems == () and first.width == 8 and first.height == 6 and first.type == "image/png"
    assert re.fullmatch(r"media/a-b\.[0-9a-f]{10}\.png", first.path) and first.source == "media/a b.png"
    (tmp_path / "media/a b.png").unlink()
    assert library.find("/media/a b.png", "site.yaml", "image")[0] == first  # read once per build
    assert library.find("question.mp3", "questions/q.yaml", "image")[1][0].code == "media.type"


# -- diagnostics, located ----------------------------------------------------------------


def located(result, code: str) -> list[str]:
    """The 'path:line:col: severity' of each diagnostic with this code."""
    return re.findall(rf"^(\S+:\d+:\d+: (?:error|warning)): .*\[{re.escape(code)}\]$", result.err, re.MULTILINE)


def test_a_missing_image_is_a_located_error_with_the_closest_name(make_content):
    content = media_site(make_content)
    (content / "questions/cell.svg").rename(content / "questions/cel.svg")
    result = check(content)
    assert result.status == 1
    assert located(result, "media.missing") == ["questions/gpu-role.yaml:4:23: error", "questions/gpu-role.yaml:9:24: error"]
    assert "hint: did you mean 'cel.svg'?" in result.err


def test_an_image_without_alt_text_is_an_error(make_content):
    result = check(media_site(make_content, **{"questions/gpu-role.yaml": QUESTION.replace("![de kern]", "![]")}))
    assert result.status == 1 and located(result, "markup.image-alt") == ["questions/gpu-role.yaml:6:24: error"]


def test_a_large_image_is_a_warning(make_content):
    content = media_site(make_content)
    from PIL import Image

    noise = Image.frombytes("RGB", (700, 700), os.urandom(700 * 700 * 3))  # does not compress
    noise.save(content / "media/nucleus.png")
    result = check(content)
    assert result.status == 0 and located(result, "media.large") == ["questions/gpu-role.yaml:6:24: warning", "questions/gpu-role.yaml:11:27: warning"]
    assert run_cli("check", "--content", content, "--strict").status == 1


@pytest.mark.parametrize(
    "audio,code",
    [("question.wav", "media.missing"), ("../../question.mp3", "media.outside"), ("/etc/passwd", "media.type"), ("cell.svg", "media.type")],
)
def test_audio_follows_the_rules_of_images(make_content, audio, code):
    result = check(media_site(make_content, **{"questions/gpu-role.yaml": QUESTION.replace("audio: question.mp3", f"audio: {audio}")}))
    assert result.status == 1 and located(result, code) == [f"questions/gpu-role.yaml:7:{3 if code != 'media.type' else 10}: error"], result.err


def test_audio_whose_bytes_are_not_its_format_is_an_error(make_content):
    content = media_site(make_content)
    (content / "media/gpu.ogg").write_bytes(MP3)
    result = check(content)
    assert result.status == 1 and located(result, "media.format") == ["glossary/gpu.yaml:2:51: error"]


def built_files(site: Path) -> dict[str, bytes]:
    return {path.relative_to(site).as_posix(): path.read_bytes() for path in site.rglob("*") if path.is_file()}


def test_bad_input_is_located_and_nothing_outside_the_content_folder_is_read_or_published(make_content, tmp_path, monkeypatch):
    """The issue's bad input: a path out of the content folder, an absolute path, a link to
    /etc/passwd or /dev/zero named cell.png, a FIFO, a 50 MB image, an SVG with a script or
    an onload, bytes that are not their extension's format."""
    lines = {
        "dots": "![a](../../outside.png)",
        "absolute": "![a](/etc/passwd.png)",
        "passwd": "![a](passwd.png)",
        "zero": "![a](zero.png)",
        "fifo": "![a](fifo.png)",
        "huge": "![a](huge.png)",
        "script": "![a](script.svg)",
        "onload": "![a](onload.svg)",
        "wrong": "![a](wrong.png)",
    }
    explanation = " ".join(lines.values())
    question = f"topic: basics\nanswer: A\nnl:\n  question: Vraag?\n  choices: [Ja, Nee]\n  explanation: Zie {explanation}\n"
    content = make_content(**{"questions/gpu-role.yaml": question})
    (tmp_path / "outside.png").write_bytes(png())
    os.symlink("/etc/passwd", content / "questions/passwd.png")
    os.symlink("/dev/zero", content / "questions/zero.png")
    os.mkfifo(content / "questions/fifo.png")
    with (content / "questions/huge.png").open("wb") as file:
        file.truncate(50 * 1024 * 1024)
    (content / "questions/script.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><script>alert(1)</script></svg>')
    (content / "questions/onload.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1" onload="alert(1)"/>')
    (content / "questions/wrong.png").write_bytes(b"GIF89a" + b"\0" * 32)
    read = []
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: read.append(len(data := real_read(fd, n))) or data)
    site = tmp_path / "site"
    result = run_cli("build", "--content", content, "--out", site, "--no-search", "--jobs", "1")
    assert result.status == 1 and "Traceback" not in result.err
    where = "questions/gpu-role.yaml:6:"
    for code in ("media.outside", "media.outside", "media.outside", "media.special", "media.too-large", "media.svg-script", "media.format"):
        assert any(line.startswith(where) for line in located(result, code)), code
    assert len(located(result, "media.outside")) == 3 and len(located(result, "media.svg-script")) == 2
    assert located(result, "media.missing") == [f"{where}44: error"]  # /etc/passwd.png: taken from the content folder, where it is not
    assert sum(read) < 20 * 1024 * 1024  # the 50 MB file, /dev/zero and the FIFO were not read
    assert not site.exists()
    result = run_cli("build", "--content", make_content(), "--out", site, "--no-search")  # and a good build publishes none of it
    assert result.status == 0
    passwd = Path("/etc/passwd").read_bytes()
    assert not [path for path, data in built_files(site).items() if passwd in data or path.startswith("media/")]


# -- the built site ------------------------------------------------------------------------


@pytest.fixture
def built_media_site(make_content, tmp_path) -> Path:
    site = tmp_path / "site"
    result = run_cli("build", "--content", media_site(make_content), "--out", site, "--no-search")
    assert result.status == 0, result.err
    return site


def published(site: Path, stem: str, extension: str) -> str:
    (path,) = [p.relative_to(site).as_posix() for p in (site / "media").glob(f"{stem}.*.{extension}")]
    assert re.fullmatch(rf"media/{stem}\.[0-9a-f]{{10}}\.{extension}", path)
    return path


def test_images_and_audio_are_published_fingerprinted_with_their_sizes(built_media_site):
    site = built_media_site
    cell, nucleus, sound = published(site, "cell", "svg"), published(site, "nucleus", "png"), published(site, "question", "mp3")
    assert (site / cell).read_text(encoding="utf-8") == SVG and (site / sound).read_bytes() == MP3
    page = (site / "nl/questions/gpu-role/index.html").read_text(encoding="utf-8")
    assert f'<img alt="een cel met een kern" src="../../../{cell}" width="120" height="80">' in page
    assert f'<img alt="de kern" src="../../../{nucleus}" width="40" height="30">' in page
    assert f'<audio controls preload="none" src="../../../{sound}" aria-label="Beluisteren">' in page
    french = (site / "fr/questions/gpu-role/index.html").read_text(encoding="utf-8")
    assert f'<img alt="une cellule avec un noyau" src="../../../{cell}"' in french and "<audio" not in french  # its own alt text, no audio
    practice = (site / "nl/practice/basics/index.html").read_text(encoding="utf-8")
    assert f'src="../../../{cell}" width="120" height="80"' in practice and f'src="../../../{sound}"' in practice
    term = (site / "nl/glossary/gpu/index.html").read_text(encoding="utf-8")
    assert f'src="../../../{published(site, "gpu", "ogg")}" aria-label="Uitspraak"' in term


def test_the_decks_ship_the_media_their_notes_show_and_play(built_media_site, tmp_path):
    site = built_media_site
    (deck,) = (site / "nl/downloads").glob("*.apkg")
    with zipfile.ZipFile(deck) as package:
        listing = json.loads(package.read("media"))
        files = {name: package.read(number) for number, name in listing.items()}
        (tmp_path / "c.anki2").write_bytes(package.read("collection.anki2"))
    cell, sound, term = (Path(published(site, *parts)).name for parts in (("cell", "svg"), ("question", "mp3"), ("gpu", "ogg")))
    nucleus = Path(published(site, "nucleus", "png")).name
    assert files == {
        cell: SVG.encode(),
        nucleus: (site / "media" / nucleus).read_bytes(),
        sound: MP3,
        term: OGG,
    }
    fields = [row[0].split("\x1f") for row in sqlite3.connect(tmp_path / "c.anki2").execute("SELECT flds FROM notes")]
    stem = next(f[0] for f in fields if len(f) > 3)
    assert f'<img alt="een cel met een kern" src="{cell}" width="120" height="80">' in stem and stem.endswith(f"[sound:{sound}]")
    assert next(f[0] for f in fields if len(f) == 3) == f"GPU [sound:{term}]"


def test_a_language_saved_offline_lists_the_media_its_pages_show(built_media_site):
    site = built_media_site
    lists = {lang: json.loads((site / lang / "offline-pages.json").read_text(encoding="utf-8")) for lang in ("nl", "fr")}
    shown = {lang: {path for path, _ in listed.get("media", [])} for lang, listed in lists.items()}
    cell, nucleus = published(site, "cell", "svg"), published(site, "nucleus", "png")
    assert shown["nl"] == {cell, nucleus, published(site, "question", "mp3"), published(site, "gpu", "ogg")}
    assert shown["fr"] == {cell, nucleus}  # the French texts play nothing
    digests = dict(lists["nl"]["media"])
    assert digests[cell] == hashlib.sha256(SVG.encode()).hexdigest()[:16]


def test_a_changed_image_renames_it_on_every_page_that_shows_it(make_content, tmp_path):
    """The pages' keys hold the media's names: an image edited alone (no YAML changed) is
    published under its new name, and the pages show that name."""
    content, site = media_site(make_content), tmp_path / "site"
    assert run_cli("build", "--content", content, "--out", site, "--no-search").status == 0
    before = published(site, "nucleus", "png")
    (content / "media/nucleus.png").write_bytes(png(50, 20, "#000000"))
    assert run_cli("build", "--content", content, "--out", site, "--no-search").status == 0
    after = published(site, "nucleus", "png")
    page = (site / "nl/questions/gpu-role/index.html").read_text(encoding="utf-8")
    assert after != before and f'src="../../../{after}" width="50" height="20"' in page


def test_a_folder_of_media_is_no_unknown_folder(make_content):
    content = media_site(make_content)
    write_files(content, {"pictures/readme.txt": "not content"})
    result = check(content)
    assert result.status == 0 and "folder.unknown" not in result.err
    write_files(content, {"question/q.yaml": "topic: basics\n"})
    assert "[folder.unknown]" in check(content).err


def test_pages_with_media_are_valid_html(built_media_site):
    from test_validity import validate

    assert validate(built_media_site) == []
