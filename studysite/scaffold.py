"""`studysite new DIR`: a new site repository that builds at once and deploys on push.

The starter files are package data (studysite/starter/): records of each kind with a block
in each language Studysite has starter texts for, a README for the author, a .gitignore and
a GitHub Pages workflow that installs a pinned Studysite. A new site keeps the blocks of its
languages; a language without starter texts gets the English text, marked for translation.
Nothing is ever written over: the folder must be new or empty."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from studysite import __version__
from studysite.content.json_schema import schema_files
from studysite.languages import language_name, language_problem

REPOSITORY = "https://github.com/studysite/studysite"
SCHEMA_FOLDER = "schemas"  # the content files' JSON Schemas, for the editor  # as pyproject.toml's [project.urls]
STARTER = Path(__file__).resolve().parent / "starter"
SOURCE_LANGUAGE = "en"  # the starter text a language without its own starts from
# The official actions the Pages workflow uses, each pinned to the commit of a release tag
# (a tag can be moved; a commit cannot), the tag written beside it.
ACTIONS = {
    "checkout": ("actions/checkout", "11bd71901bbe5b1630ceea73d27597364c9af683", "v4.2.2"),
    "setup-python": ("actions/setup-python", "a26af69be951a213d495a4c3e4e4022e16d87065", "v5.6.0"),
    "configure-pages": ("actions/configure-pages", "983d7736d9b0ae728b81ab479565c72886d7745b", "v5.0.0"),
    "upload-pages-artifact": ("actions/upload-pages-artifact", "56afc609e74202658d3ffba0e8f6dda462b719fa", "v3.0.1"),
    "deploy-pages": ("actions/deploy-pages", "d6db90164ac5ed86f2b6aed7e0febac5b3c0c03e", "v4.0.5"),
}
_VERSION = re.compile(r"\d+(\.\d+){0,3}((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?")
_GIT_REF = re.compile(r"[A-Za-z0-9._][A-Za-z0-9._/-]*")
_GIT_URL = re.compile(r"git\+https://[^\s\"'@]+@[A-Za-z0-9._][A-Za-z0-9._/-]*")
_BLOCK_START = re.compile(r"([A-Za-z][A-Za-z0-9-]*):\s*")  # a top-level key whose value is the indented lines below


class NewSiteError(Exception):
    """What `new` was asked that it cannot do (a usage error): said in one sentence."""


@dataclass(frozen=True)
class NewSite:
    folder: Path
    files: tuple[str, ...]  # relative paths, as written
    requirement: str  # what the Pages workflow installs


def requirement_of(pin: str | None) -> str:
    """What the workflow installs: `studysite==X.Y.Z` (pin: a version; default: this one),
    or Studysite from its repository at a tag or commit (pin: `git` for this version's tag,
    `git:<tag or commit>`, or a whole `git+https://...@<ref>` URL, a fork's say)."""
    if pin is None or _VERSION.fullmatch(pin):
        return f"studysite=={pin or __version__}"
    if pin == "git" or pin.startswith("git:") and _GIT_REF.fullmatch(pin[4:]):
        ref = f"v{__version__}" if pin == "git" else pin[4:]
        return f"studysite @ git+{REPOSITORY}@{ref}"
    if _GIT_URL.fullmatch(pin):
        return f"studysite @ {pin}"
    raise NewSiteError(
        f"--pin '{pin}' is neither a version (such as {__version__}) nor a git pin "
        f"('git', 'git:<tag or commit>' or 'git+https://...@<tag or commit>')"
    )


def languages_of(text: str) -> tuple[str, ...]:
    """The languages of --languages ('en,es'), checked: valid codes, written as BCP 47 writes them, once each."""
    codes = [code.strip() for code in text.split(",") if code.strip()]
    if not codes:
        raise NewSiteError("--languages names no language; give codes such as 'en,es'")
    for code in codes:
        if problem := language_problem(code):
            raise NewSiteError(f"--languages: {problem[0]}" + (f"; write '{problem[1]}'" if problem[1] else ""))
    repeated = sorted({code for code in codes if codes.count(code) > 1})
    if repeated:
        raise NewSiteError(f"--languages names '{repeated[0]}' twice")
    return tuple(codes)


def new_site(folder: Path, languages: tuple[str, ...] = (SOURCE_LANGUAGE,), title: str | None = None, pin: str | None = None) -> NewSite:
    """Write a new site into folder (made if need be; it must be empty)."""
    requirement = requirement_of(pin)
    if title is not None and (not title.strip() or "\n" in title):
        raise NewSiteError("--title must be one line of text")
    files = site_files(languages, title, requirement)
    check_folder(folder)
    write_new_files(folder, files)
    return NewSite(folder, tuple(files), requirement)


def editor_settings() -> str:
    """VS Code's settings for the YAML extension: each content kind's files checked and
    completed with its JSON Schema (content/json_schema.py)."""
    globs = {"site": "content/site.yaml", "topic": "content/topics/**/*.yaml", "question": "content/questions/**/*.yaml"}
    globs |= {"term": "content/glossary/**/*.yaml", "comparison": "content/comparisons/**/*.yaml"}
    schemas = {f"./{SCHEMA_FOLDER}/{name}.schema.json": glob for name, glob in globs.items()}
    return json.dumps({"yaml.schemas": schemas}, indent=2) + "\n"


def check_folder(folder: Path) -> None:
    if folder.exists() and not folder.is_dir():
        raise NewSiteError(f"'{folder}' is a file; give the name of a new or empty folder")
    if folder.is_dir() and any(folder.iterdir()):
        raise NewSiteError(f"'{folder}' is not empty; studysite new writes a new site only into a new or empty folder, and never over a file")


def write_new_files(folder: Path, files: dict[str, str]) -> None:
    """Each file created anew (mode 'x'): a file that appeared meanwhile is not written over."""
    for relative, text in files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("x", encoding="utf-8", newline="\n") as file:
            file.write(text)


def site_files(languages: tuple[str, ...], title: str | None, requirement: str) -> dict[str, str]:
    """Every file of a new site, by its path in the site's folder."""
    names = [language_name(code, SOURCE_LANGUAGE) for code in languages]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    first_title = title or _starter_title(languages[0])
    files = {
        "README.md": fill(_starter("README.md"), title=first_title, languages=listed, requirement=requirement, repository=REPOSITORY),
        ".gitignore": _starter("gitignore"),
        ".github/workflows/pages.yml": fill(_starter("pages.yml"), requirement=requirement, **{name: action_pin(name) for name in ACTIONS}),
        ".vscode/settings.json": editor_settings(),
        **{f"{SCHEMA_FOLDER}/{name}": text for name, text in schema_files().items()},
    }
    for path in sorted((STARTER / "content").rglob("*.yaml")):
        relative = path.relative_to(STARTER).as_posix()
        text = starter_record(path.read_text(encoding="utf-8"), languages)
        if relative == "content/site.yaml":
            text = fill(text, languages=f"[{', '.join(languages)}]")
            text = text if title is None else re.sub(r"(?m)^  title: .*$", lambda _: f"  title: {yaml_scalar(title)}", text)
        files[relative] = text
    return files


def action_pin(name: str) -> str:
    """An action as `uses:` names it: its commit, and the release tag that commit is."""
    repository, commit, tag = ACTIONS[name]
    return f"{repository}@{commit}  # {tag}"


def fill(text: str, **values: str) -> str:
    """A starter file with each @name@ replaced by its value."""
    for name, value in values.items():
        text = text.replace(f"@{name}@", value)
    return text


def language_blocks(text: str) -> tuple[str, dict[str, str]]:
    """A starter record split into what precedes its language blocks and each block
    (a top-level `<lang>:` line and the indented lines under it)."""
    head, blocks, current = [], {}, None
    for line in text.splitlines(keepends=True):
        match = _BLOCK_START.fullmatch(line.rstrip("\n"))
        if match and language_problem(match.group(1)) is None:
            current = match.group(1)
            blocks[current] = line
        elif current is not None and (line.startswith((" ", "#")) or not line.strip()):
            blocks[current] += line
        else:
            current = None
            head.append(line)
    return "".join(head), blocks


def starter_record(text: str, languages: tuple[str, ...]) -> str:
    """A starter record with a block for each of these languages: its own starter text, or
    the English one marked for translation."""
    head, blocks = language_blocks(text)
    kept = []
    for code in languages:
        if code in blocks:
            kept.append(blocks[code])
        else:
            english = blocks[SOURCE_LANGUAGE].split("\n", 1)[1]
            note = f"# {code}: the English text below is waiting for its translation into {language_name(code, SOURCE_LANGUAGE)}\n"
            kept.append(f"{note}{code}:\n{english}")
    return head + "".join(kept)


def yaml_scalar(text: str) -> str:
    """Text as a YAML value: plain where YAML reads it back the same, else double-quoted."""
    try:
        if yaml.safe_load(f"value: {text}") == {"value": text}:
            return text
    except yaml.YAMLError:
        pass
    return json.dumps(text, ensure_ascii=False)


def _starter(name: str) -> str:
    return (STARTER / name).read_text(encoding="utf-8")


def _starter_title(language: str) -> str:
    """The starter title of a language (the English one for a language without its own)."""
    _, blocks = language_blocks(_starter("content/site.yaml"))
    code = language if language in blocks else SOURCE_LANGUAGE
    return str(yaml.safe_load(blocks[code])[code]["title"])


def summary(site: NewSite, languages: tuple[str, ...]) -> str:
    """What `new` says it did, and what to do next."""
    return "\n".join(
        [
            f"Created a new site in {site.folder} ({', '.join(languages)}): {len(site.files)} files, the Pages workflow installing '{site.requirement}'.",
            "Next:",
            f"  cd {site.folder}",
            "  studysite serve        preview on http://127.0.0.1:8000/ while you edit content/",
            "  then push it to GitHub and set Settings -> Pages -> Source: GitHub Actions (README.md says more).",
        ]
    )
