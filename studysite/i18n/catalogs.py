"""The translators' gettext workflow (with Babel): extract, update, init, for the UI messages of
templates/ (messages.po) and for the content's text (content.po, see content_po.py)."""

from __future__ import annotations

import datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from studysite.content.load import load_documents
from studysite.content.records import Content
from studysite.content.validate import validate_content
from studysite.diagnostics import ContentError, Diagnostic, Location, Report, Severity
from studysite.fileio import MAX_TEXT, FileRefused, check_file, files_below, shown_path, write_whole
from studysite.i18n import content_po, po_check
from studysite.i18n.ui_catalogs import DOMAIN, SHIPPED_LOCALES, catalog_path
from studysite.languages import is_valid_language, language_problem, parse_locale
from studysite.shipped import shipped_folder

TEMPLATE_FILE = f"{DOMAIN}.pot"
SHIPPED_TEMPLATE = SHIPPED_LOCALES / TEMPLATE_FILE  # the messages of Studysite's own templates
METHOD_MAP = [("**.html", "jinja2.ext:babel_extract"), ("**.xml", "jinja2.ext:babel_extract")]
OPTIONS_MAP = {"**": {"extensions": "jinja2.ext.i18n", "trimmed": "true", "newstyle_gettext": "true"}}
# A fixed date keeps the catalogs' headers from changing on every run.
EPOCH = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)


class CatalogError(Exception):
    pass


def extract(site_root: Path) -> Catalog:
    """Every UI message of the templates a site is built with: its own, then Studysite's.
    Studysite's are read from its template catalog (locales/messages.pot), not parsed,
    except in its own checkout, whose templates make that catalog."""
    own, shipped = site_root / "templates", shipped_folder("templates")
    if own.is_dir() and own.resolve() == shipped.resolve():
        return extract_from([shipped])
    catalog = extract_from([own]) if own.is_dir() else _new_template()
    for message in shipped_messages():
        catalog.add(message.id, None, message.locations, auto_comments=message.auto_comments, flags=message.flags, context=message.context)
    return catalog


def shipped_messages() -> Catalog:
    """The messages of Studysite's own templates, as 'i18n extract' wrote them in its
    checkout (tests/test_catalogs.py holds them equal)."""
    with SHIPPED_TEMPLATE.open("rb") as file:
        return read_po(file)


def _new_template() -> Catalog:
    return Catalog(project="Studysite", domain=DOMAIN, creation_date=EPOCH, fuzzy=False)


def extract_from(template_dirs: list[Path]) -> Catalog:
    """Every UI message of the templates in these folders; ContentError, located, for a file
    a build refuses to read (fileio.check_file), which Babel would read without end."""
    catalog = _new_template()
    for templates in template_dirs:
        check_templates(templates)
        for filename, lineno, message, comments, context in extract_from_dir(templates, METHOD_MAP, OPTIONS_MAP):
            catalog.add(message, None, [(f"templates/{filename}", lineno)], auto_comments=comments, context=context)
    return catalog


def check_templates(folder: Path) -> None:
    refused = []
    for name in sorted(files_below(folder)):
        try:
            check_file(folder / name, MAX_TEXT, within=folder)
        except FileRefused as error:
            refused.append(Diagnostic(Severity.ERROR, Location(shown_path(folder / name), 1, 1), error.code, error.strerror, error.hint))
        except FileNotFoundError:  # gone since the listing, or a link to nothing: Babel passes it by
            continue
    if refused:
        raise ContentError(refused)


def _write(catalog: Catalog, path: Path, content: bool = False) -> None:
    """A catalog as a PO file. UI catalogs are sorted by msgid; content catalogs keep the
    records' order (kind, id, field) and name only the file of each entry, not its line,
    so that editing one record changes only its own entries."""
    catalog.charset = "utf-8"  # in another charset Babel would write a message's '…' as \u2026, another msgid
    path.parent.mkdir(parents=True, exist_ok=True)
    write_whole(  # never left cut short; written beside the file a link leads to, which stays a link
        path.resolve(),
        lambda file: write_po(
            file, catalog, width=100, sort_output=not content, include_lineno=not content, include_previous=content
        ),
    )


def _read(path: Path, language: str, report: Report) -> Catalog | None:
    """A catalog to bring up to date; None (with located errors) when its syntax or its
    Plural-Forms is wrong: Babel would read it wrongly, and writing it back lose text."""
    code = "content-po.syntax" if path.name == f"{content_po.DOMAIN}.po" else "i18n.catalog-syntax"
    checked = po_check.read_po_file(path, parse_locale(language), shown_path(path), report, code)
    return checked.catalog if checked is not None else None


def _read_all(paths: list[Path], report: Report) -> list[tuple[Path, str, Catalog]]:
    """(path, language, catalog) of each of these catalogs that reads; the mistakes of the
    others are in the report, which the caller raises once it has read every catalog."""
    read = [(path, language_of(path), _read(path, language_of(path), report)) for path in paths if is_valid_language(language_of(path))]
    return [(path, language, catalog) for path, language, catalog in read if catalog is not None]


def language_of(path: Path) -> str:
    """The language of a catalog at locales/<lang>/LC_MESSAGES/<domain>.po."""
    return path.parent.parent.name.replace("_", "-")


def run(action: str, site_root: Path, language: str | None, content: Content | None = None) -> str:
    """An `i18n` command; content is the validated site content (None: UI messages only)."""
    locales = site_root / "locales"
    template = extract(site_root)
    content_template = content_po.make_template(content, EPOCH) if content is not None else None
    if action == "extract":
        _write(template, locales / TEMPLATE_FILE)
        done = f"Extracted {len(template)} messages to {locales / TEMPLATE_FILE}"
        if content_template is not None:
            _write(content_template, locales / content_po.TEMPLATE_FILE, content=True)
            done += f" and {len(content_template)} content fields to {locales / content_po.TEMPLATE_FILE}"
        return done + "."
    if action == "init":
        return init(locales, template, language or "", content_template, content)
    return update(locales, template, content_template, language)


def content_to_translate(content_dir: Path) -> Content | None:
    """The validated content whose text content.pot holds; None when there is no content
    folder (a site of templates only). A content error stops the command, located."""
    if not (content_dir / "site.yaml").is_file():
        return None
    report = Report(source_root=content_dir)
    content = validate_content(load_documents(content_dir, report), report)
    report.raise_if_errors()
    return content


def check_language(language: str, action: str) -> None:
    """Refuse a code that is no language, or that is written otherwise than BCP 47 writes
    it: 'DE' would make locales/DE/ beside locales/de/, which the site's 'de' never reads."""
    problem = language_problem(language)
    if problem is not None:
        what, canonical = problem
        raise CatalogError(what + (f"; run 'python build.py i18n {action} {canonical}'" if canonical else ""))


def _new_catalog(language: str, domain: str) -> Catalog:
    return Catalog(locale=parse_locale(language), domain=domain, project="Studysite", creation_date=EPOCH, revision_date=EPOCH, fuzzy=False)


def init(locales: Path, template: Catalog, language: str, content_template: Catalog | None = None, content: Content | None = None) -> str:
    """Start a language: its content.po, and its messages.po unless Studysite ships the
    language's interface (the shipped catalog is used as it is, and a site's own messages.po
    need hold only the messages it changes). An existing file is left alone."""
    check_language(language, "init")
    path = catalog_path(locales, language)
    content_path = content_po.po_path(locales, language)
    shipped = catalog_path(SHIPPED_LOCALES, language)
    ships_ui = shipped.is_file() and shipped.resolve() != path.resolve()
    wants_ui = not path.exists() and not ships_ui
    wants_content = content_template is not None and content is not None and language != content.site.default_language
    if not wants_ui and not (wants_content and not content_path.exists()):
        raise CatalogError(_nothing_to_init(path, content_path, language, ships_ui, wants_content))
    done = []
    if ships_ui:
        done.append(f"Studysite ships the interface in '{language}': no messages.po is needed (one in {path.parent} overrides its messages one by one).")
    elif wants_ui:
        catalog = _new_catalog(language, DOMAIN)
        catalog.update(template)
        _write(catalog, path)
        done.append(f"Created {path}: translate its {len(catalog)} messages.")
    if wants_content and not content_path.exists():
        catalog = content_po.update_catalog(_new_catalog(language, content_po.DOMAIN), content_template)
        _write(catalog, content_path, content=True)
        done.append(f"Created {content_path}: translate its {len(catalog)} content fields.")
    done.append(f"Add '{language}' to 'languages:' in content/site.yaml when it is ready.")
    return " ".join(done)


def _nothing_to_init(path: Path, content_path: Path, language: str, ships_ui: bool, wants_content: bool) -> str:
    """Why `i18n init` of a language has nothing to create."""
    update = f"run 'python build.py i18n update {language}' to bring it up to date"
    if wants_content:
        return f"{content_path} exists already; {update}"
    if path.exists():
        return f"{path} exists already; {update}"
    return f"Studysite ships the interface in '{language}' and there is no content to translate into it: nothing to create"


def _updated_ui_catalog(catalog: Catalog, template: Catalog) -> Catalog:
    """A language's messages.po refreshed from the templates' messages (changes go fuzzy).
    The translation of a message the templates no longer have is kept as obsolete (#~),
    from update to update, and is used again when the message comes back."""
    for message in list(catalog.obsolete.values()):
        if message.id and catalog.get(message.id, message.context) is None:
            catalog[message.id] = message
    catalog.obsolete.clear()
    catalog.update(template)
    return catalog


def update(locales: Path, template: Catalog, content_template: Catalog | None = None, language: str | None = None) -> str:
    """Bring every catalog (or one language's) up to date with the templates and the content."""
    report = Report()
    wanted = [path for path in sorted(locales.glob(f"*/LC_MESSAGES/{DOMAIN}.po")) if not language or language_of(path) == language]
    content_catalogs = sorted(locales.glob(f"*/LC_MESSAGES/{content_po.DOMAIN}.po"))
    with_content = content_template is not None and (content_catalogs or (locales / content_po.TEMPLATE_FILE).exists())
    wanted_content = [path for path in content_catalogs if with_content and (not language or language_of(path) == language)]
    if language:
        check_language(language, "update")
        if not any(language_of(path) == language for path in (*wanted, *content_catalogs)):
            raise CatalogError(f"there is no catalog of '{language}' in {locales}; run 'python build.py i18n init {language}' to start one")
    ui, contents = _read_all(wanted, report), _read_all(wanted_content, report)
    report.raise_if_errors()  # every mistake of every catalog, before a file is written
    updated = []
    for path, code, catalog in ui:
        _write(_updated_ui_catalog(catalog, template), path)
        updated.append(f"{code} ({DOMAIN})")
    _write(template, locales / TEMPLATE_FILE)
    if with_content:
        for path, code, catalog in contents:
            _write(content_po.update_catalog(catalog, content_template), path, content=True)
            updated.append(f"{code} ({content_po.DOMAIN})")
        _write(content_template, locales / content_po.TEMPLATE_FILE, content=True)
    return f"Updated {len(updated)} catalogs ({', '.join(updated) or 'none'}) from {len(template)} messages."
