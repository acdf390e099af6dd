"""CSV and TSV in: one question a row, one column per field and language (SPEC section 4).

The columns come from the schema: a record field is a column of its name (`answer`,
`tolerance`), a block field a column `<lang>.<field>`; a lettered list (choices and their
feedback) is one column per letter, `<lang>.choice.1` ..., another list one column whose
items are separated by `|` (`<lang>.accept`, `<lang>.items`), a match question's pairs
`left = right` separated by `|`. A `\\|` or `\\=` is the character itself. An empty cell
is an absent field; a cell is text, never a formula. The file is UTF-8 (a byte order mark
is fine; UTF-16 with its byte order mark too, as a spreadsheet's "Unicode text"); other
bytes are refused, with the line and the hint to save as UTF-8.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from studysite.content.fields import REQUIRED, Field, Kind
from studysite.content.readers import LETTERS_SHAPE
from studysite.diagnostics import Location, Report, did_you_mean
from studysite.exchange.drafts import CellLocation, Draft, decode_text
from studysite.languages import language_problem

DELIMITERS = {"\t": "a tab", ";": "';'", ",": "','"}
_UNESCAPED_BAR = re.compile(r"(?<!\\)\|")
_UNESCAPED_EQUALS = re.compile(r"(?<!\\)=")


@dataclass(frozen=True, eq=False)  # one per header cell: compared and hashed as itself
class Column:
    """What a header cell names: a record field, or a language's block field (and, for a
    lettered list, which item: 1-based)."""

    name: str
    field: Field
    language: str = ""
    item: int = 0

    @property
    def path(self) -> str:
        return f"{self.language}.{self.field.name}" if self.language else self.field.name


def delimiter_of(header: str) -> str | None:
    """The delimiter a header line uses: the one of tab, ';' and ',' it holds most of."""
    counts = {delimiter: header.count(delimiter) for delimiter in DELIMITERS}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else None


def columns_of(kind: Kind) -> dict[str, Field]:
    """Every record column a kind's types take, by name (the union of its types' fields)."""
    return {f.name: f for variant in kind.variants.values() for f in variant.record.fields}


def block_column_names(kind: Kind) -> dict[str, tuple[Field, int]]:
    """The names a language's columns take after '<lang>.': a field's name, or for a
    lettered list one name per item ('choice.1' ... from 'choices', 'feedback.1' ...)."""
    names: dict[str, tuple[Field, int]] = {}
    for f in kind.any_block.fields:
        if f.lettered:
            most = f.shape.json.get("maxItems", 0)
            for number in range(1, most + 1):
                names[f"{_singular(f.name)}.{number}"] = (f, number)
        else:
            names[f.name] = (f, 0)
    return names


def _singular(name: str) -> str:
    return name[:-1] if name.endswith("s") else name


def read_header(cells: list[str], path: str, kind: Kind, report: Report) -> list[Column | None]:
    """The column of each header cell (None for one that names nothing; reported)."""
    record_columns, block_names = columns_of(kind), block_column_names(kind)
    columns: list[Column | None] = []
    seen: set[str] = set()
    for name in (cell.strip() for cell in cells):
        where = CellLocation(path, 1, 0, name or "(empty)")
        column = _column(name, record_columns, block_names)
        if name in seen:
            report.error(where, "csv.column-duplicate", f"the column '{name}' is there twice", "keep one of them", source="")
            column = None
        elif column is None:
            report.error(where, "csv.column-unknown", f"unknown column '{name}'", _column_hint(name, record_columns, block_names), source="")
        elif column.language and (problem := language_problem(column.language)):
            message, canonical = problem
            report.error(where, "language.invalid", message, f"write '{canonical}.{name.split('.', 1)[1]}'" if canonical else "", source="")
            column = None
        seen.add(name)
        columns.append(column)
    return columns


def _column(name: str, record_columns: Mapping[str, Field], block_names: Mapping[str, tuple[Field, int]]) -> Column | None:
    if name in record_columns:
        return Column(name, record_columns[name])
    language, _, rest = name.partition(".")
    if rest in block_names:
        field, item = block_names[rest]
        return Column(name, field, language, item)
    return None


def _column_hint(name: str, record_columns: Mapping[str, Field], block_names: Mapping[str, tuple[Field, int]]) -> str:
    language, dot, rest = name.partition(".")
    if dot:
        return did_you_mean(rest, block_names) or f"a language's columns are {language}.question, {language}.choice.1 ... (docs/import-export.md)"
    return did_you_mean(name, record_columns) or f"the columns are {', '.join(record_columns)} and <lang>.question, <lang>.choice.1 ... (docs/import-export.md)"


def read_csv(data: bytes, path: str, kind: Kind, report: Report, topic_given: bool = False) -> list[Draft]:
    """The drafts of a CSV/TSV file's rows; problems go to the report. Problems with the
    header (an unknown or missing column) leave the rows unread: they would all say so."""
    text = decode_text(data, path, report)
    if text is None:
        return []
    header_line = text.split("\n", 1)[0]
    delimiter = delimiter_of(header_line)
    if delimiter is None:
        other = sorted({char for char in header_line if char in "|:/ "})
        found = f"; it holds {', '.join(repr(c) for c in other)}" if other else ""
        message = f"the header row has no ',', ';' or tab between its columns{found}"
        report.error(CellLocation(path, 1, 0), "csv.delimiter", message, "separate the columns with ',', ';' or a tab (docs/import-export.md)", source="")
        return []
    rows = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    header = next(rows, [])
    told = len(report.errors)
    columns = read_header(header, path, kind, report)
    _check_required_columns(columns, path, kind, report, topic_given)
    if len(report.errors) > told:
        return []
    drafts, paths = [], _paths_of(columns)
    for number, cells in enumerate(rows, 2):
        if any(cell.strip() for cell in cells):
            draft = read_row(cells, number, columns, path, kind, report, paths)
            if draft is not None:
                drafts.append(draft)
    return drafts if _has_needed_columns(drafts, columns, path, kind, report) else []


def _has_needed_columns(drafts: list[Draft], columns: list[Column | None], path: str, kind: Kind, report: Report) -> bool:
    """Whether the file has a column for every record field its rows' types need (an
    'answer' column for single questions); each one missing is told once, at the header."""
    names = {column.name for column in columns if column is not None}
    missing: dict[str, list[str]] = {}
    for type_name in dict.fromkeys(str(draft.record.get(kind.variant_key, kind.default_variant)) for draft in drafts):
        variant = kind.variants.get(type_name)
        for f in variant.record.fields if variant else ():
            if f.need is REQUIRED and f.name not in names and f.name != "topic":
                missing.setdefault(f.name, []).append(type_name)
    for name, types in missing.items():
        message = f"the file has no '{name}' column, which {' and '.join(types)} questions need"
        report.error(
            CellLocation(path, 1, 0),
            "csv.column-missing",
            message,
            f"add an '{name}' column; docs/import-export.md says what it holds for each type",
            source="",
        )
    return not missing


def _check_required_columns(columns: list[Column | None], path: str, kind: Kind, report: Report, topic_given: bool) -> None:
    names = {column.name for column in columns if column is not None}
    where = CellLocation(path, 1, 0)
    if not any(column and column.language and column.field.need is REQUIRED for column in columns):
        report.error(where, "csv.column-missing", "the file has no question column", "add a column per language such as 'nl.question'", source="")
    if "topic" not in names and not topic_given:
        report.error(
            where, "csv.column-missing", "the file has no 'topic' column", "add a 'topic' column, or give every question one topic with --topic ID", source=""
        )


def read_row(cells: list[str], number: int, columns: list[Column | None], path: str, kind: Kind, report: Report, paths: dict | None = None) -> Draft | None:
    """One row's draft; None when a cell cannot be read (reported). paths: the columns by
    the field path they give (_paths_of)."""
    paths = _paths_of(columns) if paths is None else paths
    at = lambda column: CellLocation(path, number, 0, column.name)  # noqa: E731
    if len(cells) > len(columns) and any(cell.strip() for cell in cells[len(columns) :]):
        report.error(
            CellLocation(path, number, 0),
            "csv.row-long",
            f"row {number} has {len(cells)} cells; the header has {len(columns)}",
            "a cell that holds the delimiter must be quoted",
            source="",
        )
        return None
    given = {column: cell.strip() for column, cell in zip(columns, cells, strict=False) if column is not None and cell.strip()}
    type_column = next((column for column in given if column.name == kind.variant_key), None)
    variant = kind.variants.get(given[type_column] if type_column else kind.default_variant, kind.variant(kind.default_variant))
    record, blocks, places, lists = {}, {}, {"": CellLocation(path, number, 0)}, {}
    for column, cell in given.items():
        places[column.path if not column.item else f"{column.path}.{column.item}"] = at(column)
        if not column.language:
            record[column.name] = cell_value(variant.record.field(column.name) or column.field, cell)
        elif column.item:
            lists.setdefault((column.language, column.field.name), {})[column.item] = (cell, column)
        else:
            places.setdefault(column.language, at(column))
            value = block_value(column.field, cell, at(column), report)
            if value is None:
                return None
            blocks.setdefault(column.language, {})[column.field.name] = value
    for (language, name), items in lists.items():
        value = lettered_list(kind.any_block.field(name), items, path, number, report)
        if value is None:
            return None
        blocks.setdefault(language, {})[name] = value
        places.setdefault(language, at(next(iter(items.values()))[1]))
    for block in blocks.values():
        _pad_lettered(block, kind)
    empty = {path: column for path, column in paths.items() if path not in places}  # where an absent field would be: its empty cell
    carried = frozenset(column.path for column in columns if column is not None)
    stems = [blocks[language][f.name] for language in blocks for f in variant.block.fields if f.need is REQUIRED and f.name in blocks[language]]
    places = _LazyPlaces(places, empty, path, number)
    return Draft(CellLocation(path, number, 0), record, blocks, carried, places, str(stems[0]) if stems else "")


def _paths_of(columns: list[Column | None]) -> dict[str, Column]:
    return {column.path if not column.item else f"{column.path}.{column.item}": column for column in columns if column is not None}


class _LazyPlaces(dict):
    """A row's places: those of its cells with a value, and, made when asked for, those of
    its empty cells (most rows leave most columns empty: 10,000 rows would make half a
    million locations nobody asks for)."""

    def __init__(self, given: dict, empty: dict, path: str, row: int):
        super().__init__(given)
        self.empty, self.path, self.row = empty, path, row

    def __contains__(self, key: object) -> bool:
        return super().__contains__(key) or key in self.empty

    def __getitem__(self, key: str):
        if not super().__contains__(key) and key in self.empty:
            return CellLocation(self.path, self.row, 0, self.empty[key].name)
        return super().__getitem__(key)


def _pad_lettered(block: dict, kind: Kind) -> None:
    """Lettered lists that may hold empty texts (feedback) made as long as the one that
    cannot (choices): a row leaves the cells of choices without feedback empty."""
    lettered = [f for f in kind.any_block.fields if f.lettered and f.name in block]
    full = next((f for f in lettered if f.shape.json.get("items", {}).get("minLength")), None)
    for f in lettered:
        if full is not None and f is not full and len(block[f.name]) < len(block[full.name]):
            block[f.name] = [*block[f.name], *[""] * (len(block[full.name]) - len(block[f.name]))]


def cell_value(field: Field, cell: str) -> object:
    """A record cell as the YAML value the schema reads: a number, true or false, a list
    of letters ('A,C') or of ids; text it cannot be (the schema then says why) as text."""
    json = field.shape.json
    if field.shape is LETTERS_SHAPE or json.get("type") == "array":
        return [part.strip() for part in cell.split(",") if part.strip()]
    if json.get("type") == "boolean" and cell.lower() in ("true", "false"):
        return cell.lower() == "true"
    if json.get("type") == "number":
        try:
            number = Decimal(cell)
        except InvalidOperation:
            return cell
        return number if number.is_finite() else cell
    return cell


def block_value(field: Field, cell: str, where: Location, report: Report) -> object:
    """A language block's cell: a text; items separated by '|' for a list; 'left = right'
    pairs separated by '|'."""
    if field.shape.json.get("type") != "array":
        return cell
    items = [_unescaped(item.strip()) for item in _UNESCAPED_BAR.split(cell) if item.strip()]
    if field.shape.json.get("items", {}).get("type") != "array":
        return items
    pairs = []
    for item in _UNESCAPED_BAR.split(cell):
        if not item.strip():
            continue
        sides = re.split(r"\s+=\s+", item, maxsplit=1) if re.search(r"\s=\s", item) else _UNESCAPED_EQUALS.split(item, maxsplit=1)
        if len(sides) != 2 or not sides[0].strip() or not sides[1].strip():
            report.error(
                where, "csv.pair", f"'{item.strip()}' is not a pair 'left = right'", "write the pairs as 'GPU = graphics card | CPU = processor'", source=""
            )
            return None
        pairs.append([_unescaped(sides[0].strip()), _unescaped(sides[1].strip())])
    return pairs


def _unescaped(text: str) -> str:
    return text.replace("\\|", "|").replace("\\=", "=")


def lettered_list(field: Field, items: Mapping[int, tuple[str, Column]], path: str, number: int, report: Report) -> list[str] | None:
    """A lettered list from its numbered cells (choice.1, choice.2 ...): no gap between two
    items, except in feedback, where an empty cell is a choice without one ('')."""
    last = max(items)
    gaps = [index for index in range(1, last + 1) if index not in items]
    if gaps and field.shape.json.get("items", {}).get("minLength"):  # choices cannot be empty; feedback can
        column = items[last][1]
        message = f"{_singular(field.name)} {gaps[0]} is empty but {_singular(field.name)} {last} is not"
        report.error(
            CellLocation(path, number, 0, column.name),
            "csv.gap",
            message,
            f"fill the columns {column.language}.{_singular(field.name)}.1 ... in order, with no empty one between",
            source="",
        )
        return None
    return [items[index][0] if index in items else "" for index in range(1, last + 1)]
