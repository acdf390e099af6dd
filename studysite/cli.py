"""The command line: parse arguments, call the package, print diagnostics, set the exit status."""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path

from studysite import __version__, pipeline, scaffold, urls
from studysite.content.json_schema import schema_files
from studysite.diagnostics import ContentError, Report, built_summary, plural, print_failure, print_report
from studysite.failures import as_environment_error, crash_report, internal_error_message
from studysite.fileio import write_whole
from studysite.i18n import catalogs
from studysite.i18n.status import format_status
from studysite.incremental.cache import cache_folder, cache_lock_file, open_cache
from studysite.incremental.early_start import make_renderer
from studysite.interrupts import Interrupts
from studysite.output.assets import collect_assets
from studysite.output.lock import BuildBusy, build_lock
from studysite.output.search import SearchIndexError, SearchToolError
from studysite.output.write import OutputError

# 3: the system refused (the output folder could not be written: a full disk, no permission;
# another build held it too long; Pagefind was stopped by a signal; or serve's port is taken). Kept apart from 1, so a script can tell a content mistake from it.
# 4: a bug (failures.py). 130: interrupted, saying which site is in place (interrupts.py).
EXIT_OK, EXIT_CONTENT, EXIT_USAGE, EXIT_SYSTEM, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 4, 130
WRITING_COMMANDS = (None, "build", "serve")


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="build.py", description="Build a multilingual study site from YAML content.")
    parser.add_argument("--version", action="version", version=f"Studysite {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    build = commands.add_parser("build", help="build the site (the default command)")
    _content_options(build)
    build.add_argument("--out", type=Path, default=Path("site"), help="output folder (default: site)")
    build.add_argument("--base-url", type=_base_url, default=None, help="URL the site will be served from; overrides base_url in site.yaml")
    build.add_argument("--jobs", type=_positive, default=0, help="processes rendering pages (default: the CPUs available)")
    build.add_argument("--no-search", action="store_true", help="skip the search index")

    check = commands.add_parser("check", help="validate the content; write nothing")
    _content_options(check)

    serve = commands.add_parser("serve", help="build, serve on 127.0.0.1 and rebuild on change")
    _content_options(serve)
    serve.add_argument("--port", type=_port, default=8000, help="port on 127.0.0.1, 1 to 65535 (default: 8000)")
    serve.add_argument("--out", type=Path, default=Path("site"))

    status = commands.add_parser("status", help="translation coverage per language")
    _content_options(status)

    i18n = commands.add_parser("i18n", help="gettext workflow: UI strings of templates/ (messages.po), content text (content.po)")
    i18n.add_argument("action", choices=["extract", "update", "init"])
    i18n.add_argument("language", nargs="?", help="language code: needed by init; update refreshes only that language's catalogs")
    i18n.add_argument("--content", type=Path, default=Path("content"), help="content folder (default: content); the catalogs go to locales/ beside it")
    _new_command(commands)
    _exchange_commands(commands)
    schema = commands.add_parser("schema", help="write the content files' JSON Schemas, for an editor to check and complete them")
    schema.add_argument("--out", type=Path, default=Path(scaffold.SCHEMA_FOLDER), help=f"folder to write them into (default: {scaffold.SCHEMA_FOLDER})")
    return parser


def _new_command(commands) -> None:
    new = commands.add_parser("new", help="start a new site repository: content of each kind, README, a GitHub Pages workflow")
    new.add_argument("dir", type=Path, metavar="DIR", help="the new site's folder (new or empty)")
    new.add_argument("--languages", default="en", help="the site's languages, the first the default (default: en), e.g. en,es")
    new.add_argument("--title", default=None, help="the site's title (default: a starter title in each language)")
    new.add_argument(
        "--pin",
        default=None,
        help=f"the Studysite its Pages workflow installs: a version (default: {__version__}), 'git' (this version's tag), 'git:<tag or commit>' or 'git+https://...@<ref>'",
    )


def _exchange_commands(commands) -> None:
    """`import` and `export`: questions in from spreadsheets and LMS banks, out to LMS banks (studysite/exchange/)."""
    imports = commands.add_parser("import", help="questions from a CSV/TSV, GIFT or Moodle XML file into YAML records")
    imports.add_argument("file", type=Path, metavar="FILE")
    imports.add_argument("--content", type=Path, default=Path("content"), help="content folder (default: content)")
    imports.add_argument("--topic", default="", help="the topic of questions the file gives none (GIFT, Moodle XML: no category)")
    imports.add_argument("--lang", default="", help="GIFT, Moodle XML: the language block they fill (default: the site's first language)")
    imports.add_argument("--update", action="store_true", help="replace what the file says of records that exist already")
    exports = commands.add_parser("export", help="the questions of a language as a Moodle XML, GIFT or QTI 2.1 question bank")
    exports.add_argument("--format", required=True, choices=["moodle", "qti", "gift"])
    exports.add_argument("--content", type=Path, default=Path("content"), help="content folder (default: content)")
    exports.add_argument("--lang", default="", help="the language to export (default: the site's first language)")
    exports.add_argument("--out", type=Path, required=True, help="the file to write (.xml, .txt, .zip)")


def failed_command(args: argparse.Namespace) -> str:
    """What the failure line names: "Build" (serve builds too), "Check", "Status", "i18n update"..."""
    if args.command == "i18n":
        return f"i18n {args.action}"
    return {"check": "Check", "status": "Status", "import": "Import", "export": "Export"}.get(args.command, "Build")


def _content_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--content", type=Path, default=Path("content"), help="content folder (default: content)")
    parser.add_argument("--strict", action="store_true", help="treat warnings as errors")


def _base_url(value: str) -> str:
    if not urls.is_base_url(value):
        raise argparse.ArgumentTypeError(f"'{value}' is not an absolute http(s) URL such as https://user.github.io/repo/ (no query, fragment or quotes)")
    return value


def _whole_number(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{value}' is not a whole number") from None


def _positive(value: str) -> int:
    number = _whole_number(value)
    if number < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return number


def _port(value: str) -> int:
    number = _whole_number(value)
    if not 1 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"{number} is not a TCP port; give a number from 1 to 65535, such as 8000")
    return number


def main(argv: list[str] | None = None) -> int:
    """Run a command; its exit status. Ctrl-C and SIGTERM are answered as interrupts.py says."""
    interrupts = Interrupts()
    with interrupts.answering():
        argv = sys.argv[1:] if argv is None else argv
        if not argv or argv[0].startswith("-") and argv[0] not in ("-h", "--help", "--version"):
            argv = ["build", *argv]
        try:
            args = make_parser().parse_args(argv)
        except KeyboardInterrupt:
            print("Interrupted; nothing was changed.", file=sys.stderr)
            return EXIT_INTERRUPTED
        status = _run(args, interrupts)
        if interrupts.noted is not None and status == EXIT_OK:
            name = signal.Signals(interrupts.noted).name
            print(f"Interrupted ({name}) after the new site was in place: the build had finished.", file=sys.stderr)
            return EXIT_INTERRUPTED
        return status


def _run(args: argparse.Namespace, interrupts: Interrupts) -> int:
    try:
        if COMMANDS[args.command] is run_build:
            return run_build(args, interrupts)
        return COMMANDS[args.command](args)
    except ContentError as error:
        print_failure(error.diagnostics, sys.stderr, failed_command(args))
        return EXIT_CONTENT
    except (OutputError, catalogs.CatalogError) as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except SearchIndexError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_CONTENT
    except SearchToolError as error:
        print(f"error: {error}; the previous site is unchanged.", file=sys.stderr)
        return EXIT_SYSTEM
    except BuildBusy as error:
        print(f"error: {error}.", file=sys.stderr)
        return EXIT_SYSTEM
    except KeyboardInterrupt:  # never once a build's commit has begun: Interrupts holds it
        print(INTERRUPTED.get(args.command, "Interrupted."), file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as error:  # the environment's (3) or a bug (4)
        return _failed(error, args, interrupts)


# What an interrupted command says it left.
INTERRUPTED = {
    None: "Interrupted; the previous site is unchanged.",
    "build": "Interrupted; the previous site is unchanged.",
    "serve": "Interrupted; the previous site is unchanged.",
    "i18n": "Interrupted; each catalog is as it was or wholly written.",
}


def _failed(error: Exception, args: argparse.Namespace, interrupts: Interrupts) -> int:
    """An environment's failure (exit 3) or a bug (exit 4: one sentence, the traceback in a
    file), and which site is in place when the command writes one."""
    site = ""
    if args.command in WRITING_COMMANDS:
        site = "; the new site is in place" if interrupts.committed else "; the previous site is unchanged"
    environment = as_environment_error(error)
    if environment is not None:
        where = f" ({environment.filename})" if environment.filename else ""
        print(f"error: {environment.strerror or environment}{where}{site}.", file=sys.stderr)
        return EXIT_SYSTEM
    try:
        folders = [cache_folder()]
    except Exception:  # no home folder: the temporary folder only
        folders = []
    print(f"error: {internal_error_message(error, crash_report(error, folders))}{site}.", file=sys.stderr)
    return EXIT_INTERNAL


def _options(args) -> pipeline.Options:
    return pipeline.Options(
        content_dir=args.content,
        out_dir=getattr(args, "out", Path("site")),
        base_url=getattr(args, "base_url", None) or "",
        strict=args.strict,
        search=not getattr(args, "no_search", False),
        jobs=getattr(args, "jobs", 0),
    )


def run_build(args, interrupts: Interrupts | None = None) -> int:
    options = _options(args)
    with build_lock(options.out_dir, cache_lock_file(options.content_dir), options.protected_folders):
        result = pipeline.build(options, guard=interrupts.around_commit if interrupts is not None else None)
    print_report(result.report, sys.stderr)
    print(built_summary(result.pages, result.languages, result.seconds, result.changed, len(result.report.warnings)))
    return EXIT_OK


def run_check(args) -> int:
    report = Report(strict=args.strict)
    options = _options(args)
    loaded = pipeline.load(options, report)
    make_renderer(options, loaded.content, report, collect_assets(options.layered("static"), report))  # reads the UI catalogs
    report.raise_if_errors()
    print_report(report, sys.stderr)
    print(f"Checked {plural(len(loaded.pages), 'page')}: {report.summary()}.")
    return EXIT_OK


def run_serve(args) -> int:
    from studysite.serve.server import serve  # here: its HTTP server and watcher are some 20 ms of every other command's start

    return serve(_options(args), args.port)


def run_status(args) -> int:
    report, options = Report(), _options(args)
    cache = open_cache(options.content_dir)  # what git said last time, as the status pages use it
    statuses = pipeline.load(options, report, cache).statuses.all()
    cache.save()
    print_report(report, sys.stderr)
    print(format_status(statuses))
    incomplete = [s.language for s in statuses if not s.complete]
    if args.strict and incomplete:
        print(f"Translations incomplete: {', '.join(incomplete)}.", file=sys.stderr)
        return EXIT_CONTENT
    return EXIT_OK


def run_i18n(args) -> int:
    if args.action == "init" and not args.language:
        print("error: 'i18n init' needs a language code, e.g. 'python build.py i18n init de'", file=sys.stderr)
        return EXIT_USAGE
    options = pipeline.Options(content_dir=args.content)
    print(catalogs.run(args.action, options.site_root, args.language, catalogs.content_to_translate(args.content)))
    return EXIT_OK


def run_import(args) -> int:
    from studysite.exchange.command import run_import as run  # here: only this command needs the exchange package

    return run(args)


def run_export(args) -> int:
    from studysite.exchange.command import run_export as run

    return run(args)


def run_new(args) -> int:
    try:
        languages = scaffold.languages_of(args.languages)
        site = scaffold.new_site(args.dir, languages, args.title, args.pin)
    except scaffold.NewSiteError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    print(scaffold.summary(site, languages))
    return EXIT_OK


def run_schema(args) -> int:
    """The JSON Schemas, each file written whole; a file of the same name is replaced (they
    are made from this version's schema, nothing else)."""
    args.out.mkdir(parents=True, exist_ok=True)
    for name, text in schema_files().items():
        write_whole(args.out / name, lambda file, text=text: file.write(text.encode("utf-8")))
    print(f"Wrote the JSON Schemas of the content files into {args.out}/; {scaffold.SCHEMA_FOLDER}/ beside content/ is what a new site's .vscode/settings.json names.")
    return EXIT_OK


COMMANDS = {"schema": run_schema, "new": run_new, "build": run_build, None: run_build, "check": run_check, "serve": run_serve, "status": run_status, "i18n": run_i18n, "import": run_import, "export": run_export}
