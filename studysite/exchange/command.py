"""The `import` and `export` commands: their options to the exchange package, its result to
the terminal. Content errors propagate as ContentError (cli.py prints them: exit 1); a
usage error is told here (exit 2); a file system's refusal propagates as OSError (exit 3)."""

from __future__ import annotations

import sys

from studysite.diagnostics import print_report
from studysite.exchange.exporting import ExportOptions, export_bank
from studysite.exchange.importing import ImportOptions, UsageError, import_file

EXIT_OK, EXIT_USAGE = 0, 2


def run_import(args) -> int:
    options = ImportOptions(args.file, args.content, args.topic, args.lang, args.update)
    try:
        result = import_file(options)
    except UsageError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    print_report(result.report, sys.stderr)
    print(result.summary(str(args.file), args.content))
    return EXIT_OK


def run_export(args) -> int:
    options = ExportOptions(args.format, args.content, args.lang, args.out)
    try:
        result = export_bank(options)
    except UsageError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    print_report(result.report, sys.stderr)
    print(result.summary())
    return EXIT_OK
