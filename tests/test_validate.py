"""Validation: one test per content rule, each asserting file, line, column, message and hint."""

import dataclasses

import pytest
from conftest import SITE_YAML

from studysite.content.load import load_documents
from studysite.content.readers import ID_LENGTH_HINT, MAX_ID_BYTES
from studysite.content.schema import KIND_OF_FOLDER as SCHEMAS
from studysite.content.validate import validate_content
from studysite.diagnostics import Report


def check(content_dir, strict=False):
    report = Report(strict=strict)
    content = validate_content(load_documents(content_dir, report), report)
    return content, report


def test_a_question_and_a_term_may_have_audio(make_content):
    question = "topic: basics\nanswer: A\nnl: {question: Q, choices: [a, b], explanation: E, audio: q.mp3}\nfr: {question: Q, choices: [a, b], explanation: E}\n"
    content, report = check(make_content(**{"questions/gpu-role.yaml": question, "glossary/gpu.yaml": "nl: {term: G, definition: D, audio: ../media/g.ogg}\n"}))
    assert report.errors == []  # the files are checked when the text is converted (test_media.py)
    assert content.questions["gpu-role"].texts["nl"].audio == "q.mp3" and content.questions["gpu-role"].texts["fr"].audio == ""
    assert content.terms["gpu"].texts["nl"].audio == "../media/g.ogg"


def test_minimal_site_is_valid(make_content):
    content, report = check(make_content())
    assert report.diagnostics == []
    question = content.questions["gpu-role"]
    assert question.answer == 1 and question.topic == "basics"
    assert question.texts["fr"].choices == ("Rien", "Calculer")
    assert content.site.languages == ("nl", "fr") and content.site.base_url == "https://example.org/study/"


QUESTION = "topic: {topic}\nanswer: A\nnl: {{question: Q, choices: [a, b], explanation: E}}\nfr: {{question: Q, choices: [a, b], explanation: E}}\n"
TERM = "nl: {term: G, definition: D}\nfr: {term: G, definition: D}\n"

CASES = {
    "unknown key with hint": (
        {"questions/gpu-role.yaml": "topic: basics\nanswer: B\nnl:\n  question: Q\n  choices: [a, b]\n  explantion: E\n"},
        "questions/gpu-role.yaml:6:3: unknown key 'explantion' in the 'nl' block",
        "did you mean 'explanation'?",
    ),
    "wrong type": (
        {"topics/basics.yaml": "order: first\nnl: {title: T}\nfr: {title: T}\n"},
        "topics/basics.yaml:1:8: 'order' must be a number, not 'first'",
        "",
    ),
    "missing required field": (
        {
            "questions/gpu-role.yaml": "topic: basics\nanswer: A\nnl:\n  question: Q\n  choices: [a, b]\nfr:\n  question: Q\n  choices: [a, b]\n  explanation: E\n"
        },
        "questions/gpu-role.yaml:4:3: the 'nl' block has no 'explanation'",
        "explain why the answer is right; Markdown is allowed",
    ),
    "answer outside the choices": (
        {
            "questions/gpu-role.yaml": "topic: basics\nanswer: C\nnl: {question: Q, choices: [a, b], explanation: E}\nfr: {question: Q, choices: [a, b], explanation: E}\n"
        },
        "questions/gpu-role.yaml:2:9: answer 'C' is outside the 2 choices (A-B)",
        "",
    ),
    "choice counts differ": (
        {
            "questions/gpu-role.yaml": "topic: basics\nanswer: A\nnl:\n  question: Q\n  choices: [a, b]\n  explanation: E\nfr:\n  question: Q\n  choices: [a, b, c]\n  explanation: E\n"
        },
        "questions/gpu-role.yaml:9:12: the 'fr' block has 3 choices but the 'nl' block has 2",
        'a comma ends an item in a [...] list: quote an item that holds one ("a, b"), or write the list one "- item" per line',
    ),
    "choice counts differ by a comma": (
        {
            "questions/gpu-role.yaml": "topic: basics\nanswer: A\nnl:\n  question: Q\n  choices: [Parijs, Lyon]\n  explanation: E\nfr:\n  question: Q\n  choices: [Paris, la capitale, Lyon]\n  explanation: E\n"
        },
        "questions/gpu-role.yaml:9:12: the 'fr' block has 3 choices but the 'nl' block has 2",
        'the item at line 9 holds a comma, which ends an item in a [...] list: quote it: "Paris, la capitale"',
    ),
    "choice counts differ, written a line each": (
        {
            "questions/gpu-role.yaml": "topic: basics\nanswer: A\nnl:\n  question: Q\n  choices: [a, b, c]\n  explanation: E\nfr:\n  question: Q\n  choices:\n    - a\n    - b\n  explanation: E\n"
        },
        "questions/gpu-role.yaml:10:5: the 'fr' block has 2 choices but the 'nl' block has 3",
        "every language lists the same choices in the same order",
    ),
    "too few choices": (
        {
            "questions/gpu-role.yaml": "topic: basics\nanswer: A\nnl: {question: Q, choices: [a], explanation: E}\nfr: {question: Q, choices: [a], explanation: E}\n"
        },
        "questions/gpu-role.yaml:3:28: a question has 2 to 6 choices, not 1",
        "",
    ),
    "audio that is no sound file": (
        {"glossary/gpu.yaml": "nl: {term: GPU, definition: D, audio: gpu.txt}\nfr: {term: GPU, definition: D, audio: /etc/passwd}\n"},
        "glossary/gpu.yaml:1:39: 'gpu.txt' is not audio that Studysite publishes",
        "give a file ending in .mp3, .ogg, .oga, .m4a, .wav",
    ),
    "unknown topic": (
        {"questions/gpu-role.yaml": QUESTION.format(topic="basic")},
        "questions/gpu-role.yaml:1:8: unknown topic 'basic'",
        "did you mean 'basics'?",
    ),
    "unknown term": (
        {"glossary/gpu.yaml": "related: [cpu]\nnl: {term: GPU, definition: D}\nfr: {term: GPU, definition: D}\n"},
        "glossary/gpu.yaml:1:11: unknown term 'cpu'",
        "did you mean 'gpu'?",
    ),
    "duplicate id names both files": (
        {"questions/more/other.yaml": "id: gpu-role\n" + QUESTION.format(topic="basics")},
        "questions/more/other.yaml:1:5: duplicate question id 'gpu-role': also defined in questions/gpu-role.yaml",
        "ids are unique per kind; rename one of questions/gpu-role.yaml and questions/more/other.yaml",
    ),
    "invalid language code": (
        {"topics/basics.yaml": "nl: {title: T}\nfr: {title: T}\nxx-yy: {title: T}\n"},
        "topics/basics.yaml:3:1: 'xx-yy' is not a valid language code",
        "language blocks are keyed by a code such as 'nl', 'fr' or 'pt-BR'; record keys are id, order",
    ),
    "invalid site language": (
        {"site.yaml": "languages: [nl, klingon]\nnl: {title: T}\n"},
        "site.yaml:1:17: 'klingon' is not a valid language code",
        "use a code such as 'nl', 'fr' or 'pt-BR'",
    ),
    "short title as long as the title": (
        {"site.yaml": "languages: [nl, fr]\nnl: {title: Studie, short_title: Studies}\nfr: {title: Étude}\n"},
        "site.yaml:2:34: short_title 'Studies' is not shorter than the title 'Studie'",
        "shorten it, or leave it out",
    ),
    "short title misspelled": (
        {"site.yaml": "languages: [nl, fr]\nnl: {title: Studiegids, short-title: Gids}\nfr: {title: Étude}\n"},
        "site.yaml:2:25: unknown key 'short-title' in the 'nl' block",
        "did you mean 'short_title'?",
    ),
    "duplicate key": (
        {"topics/basics.yaml": "nl: {title: T}\nfr: {title: T}\nnl: {title: U}\n"},
        "topics/basics.yaml:3:1: duplicate key 'nl' (first set at line 1)",
        "remove one of the two",
    ),
    "invalid file name as id": (
        {"glossary/Big GPU.yaml": TERM},
        "glossary/Big GPU.yaml:1:1: the file name 'Big GPU' is not a valid id (lowercase letters, digits and '-')",
        "rename the file to 'big-gpu.yaml' or set 'id: big-gpu'",
    ),
    "path-like id": (
        {"glossary/x.yaml": "id: ../x\n" + TERM},
        "glossary/x.yaml:1:5: '../x' is not a valid id",
        "ids use lowercase ASCII letters, digits and '-'",
    ),
    "id too long to name the page's folder": (
        {"questions/long.yaml": f"id: {'a' * 300}\n" + QUESTION.format(topic="basics")},
        f"questions/long.yaml:1:5: the id '{'a' * 40}…' is too long (300 characters)",
        ID_LENGTH_HINT,
    ),
    "file name too long to be an id": (
        {f"glossary/{'g' * 250}.yaml": TERM},
        f"glossary/{'g' * 250}.yaml:1:1: the file name '{'g' * 40}…' is too long for an id (250 characters)",
        f"rename the file or set a shorter 'id:'; {ID_LENGTH_HINT}",
    ),
    "default language without a title": (
        {"site.yaml": "languages: [de, nl, fr]\nnl: {title: Studie}\nfr: {title: Étude}\n"},
        "site.yaml:1:13: the default language 'de' has no title in site.yaml",
        "add a block 'de: {title: ...}' to site.yaml: every page's title comes from the default language's",
    ),
    "site language block without a title": (
        {"site.yaml": "languages: [nl, fr]\nnl: {title: Studie}\nfr: {description: Étude}\n"},
        "site.yaml:3:5: the 'fr' block of site.yaml has no 'title'",
        "add 'title: ...' to the 'fr' block",
    ),
    "a site language written in capitals": (
        {"site.yaml": "languages: [NL, fr]\nnl: {title: Studie}\nfr: {title: Étude}\n"},
        "site.yaml:1:13: the language code 'NL' is written 'nl'",
        "write 'nl', here and as the key of its blocks",
    ),
    "a block keyed by a language written otherwise": (
        {"glossary/gpu.yaml": "nl: {term: GPU, definition: D}\nFR: {term: GPU, definition: D}\n"},
        "glossary/gpu.yaml:2:1: the language code 'FR' is written 'fr'",
        "write 'fr:'",
    ),
    "a code that names no language": (
        {"site.yaml": "languages: [nl, und]\nnl: {title: Studie}\n"},
        "site.yaml:1:17: 'und' is not a valid language code",
        "use a code such as 'nl', 'fr' or 'pt-BR'",
    ),
    "a merge key": (
        {"glossary/gpu.yaml": "nl: &nl {term: GPU, definition: D}\nfr:\n  <<: *nl\n  term: GPU\n"},
        "glossary/gpu.yaml:3:3: merge keys ('<<') are not supported",
        "write the keys out; an alias (*name) may stand for a whole value",
    ),
    "a language block left empty": (
        {"glossary/gpu.yaml": "nl: {term: GPU, definition: D}\nfr: null\n"},
        "glossary/gpu.yaml:2:5: the 'fr' block is not a mapping of keys to texts",
        "write its keys indented under 'fr:', such as term, aliases",
    ),
    "a language block written as a list": (
        {"glossary/gpu.yaml": "nl: {term: GPU, definition: D}\nfr: [GPU]\n"},
        "glossary/gpu.yaml:2:5: the 'fr' block is not a mapping of keys to texts",
        "write its keys indented under 'fr:', such as term, aliases",
    ),
    "field placed at the wrong level": (
        {"glossary/gpu.yaml": "term: GPU\nnl: {term: GPU, definition: D}\nfr: {term: GPU, definition: D}\n"},
        "glossary/gpu.yaml:1:1: unknown key 'term'",
        "'term' belongs inside a language block such as 'nl:'",
    ),
    "text where a list is needed": (
        {
            "questions/gpu-role.yaml": "topic: basics\nanswer: A\nterms: gpu\nnl: {question: Q, choices: [a, b], explanation: E}\nfr: {question: Q, choices: [a, b], explanation: E}\n"
        },
        "questions/gpu-role.yaml:3:8: 'terms' must be a list, not a single value",
        "write it as 'terms: [first, second]' or one '- item' per line",
    ),
    "explicit YAML tag": (
        {"topics/basics.yaml": "nl:\n  title: !!python/name:os.system\nfr: {title: T}\n"},
        "topics/basics.yaml:2:10: YAML tag 'tag:yaml.org,2002:python/name:os.system' is not supported",
        "remove the tag; content is plain text, lists and mappings",
    ),
    "required record field missing": (
        {"questions/gpu-role.yaml": "topic: basics\nnl: {question: Q, choices: [a, b], explanation: E}\nfr: {question: Q, choices: [a, b], explanation: E}\n"},
        "questions/gpu-role.yaml:1:1: the question has no 'answer'",
        "give the letter of the correct choice, e.g. 'answer: A'",
    ),
    "comparison with one term": (
        {"comparisons/c.yaml": "topic: basics\nterms: [gpu]\nnl:\n  title: C\n  aspects: [{label: L, values: [one]}]\n"},
        "comparisons/c.yaml:2:8: a comparison needs at least 2 terms, not 1",
        "",
    ),
    "comparison row without a label": (
        {"comparisons/c.yaml": "topic: basics\nterms: [gpu, gpu]\nnl:\n  title: C\n  aspects:\n    - {values: [one, two]}\n"},
        "comparisons/c.yaml:6:7: an aspect has no 'label'",
        "",
    ),
    "comparison row with too few values": (
        {
            "comparisons/c.yaml": "topic: basics\nterms: [gpu, gpu]\nnl:\n  title: C\n  aspects:\n    - {label: L, values: [one]}\nfr:\n  title: C\n  aspects:\n    - {label: L, values: [one, two]}\n"
        },
        "comparisons/c.yaml:6:26: aspect 'L' has 1 value for 2 terms",
        "give one value per term, in the order of 'terms'",
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_rule(make_content, name):
    files, expected, hint = CASES[name]
    _, report = check(make_content(**files))
    shown = [(f"{d.location}: {d.message}", d.hint) for d in report.errors]
    assert (expected, hint) in shown, shown


def test_yaml_syntax_error_is_located_with_its_own_code(make_content):
    _, report = check(make_content(**{"glossary/gpu.yaml": "nl: {term: GPU, definition: D\nfr: {term: GPU}\n"}))
    assert [(str(d.location), d.code) for d in report.errors] == [("glossary/gpu.yaml:2:3", "yaml.syntax")]


def test_answer_letter_is_case_insensitive(make_content):
    content, report = check(make_content(**{"questions/gpu-role.yaml": QUESTION.format(topic="basics").replace("answer: A", "answer: b")}))
    assert report.diagnostics == [] and content.questions["gpu-role"].answer == 1


@pytest.mark.parametrize("kind", SCHEMAS.values(), ids=list(SCHEMAS))
def test_each_field_table_builds_its_models(kind):
    """Every field of a model is declared in its kind's table (or given: id, location, texts)."""
    given = {"location", "texts"}
    tables = kind.variants.values()  # a question's model has the fields of every type
    assert {f.name for f in dataclasses.fields(kind.record.model)} == {name for t in tables for name in t.record.names} | given
    assert {f.name for f in dataclasses.fields(kind.block.model)} == {name for t in tables for name in t.block.names}


def test_all_errors_in_one_run(make_content):
    content_dir = make_content(
        **{
            "topics/basics.yaml": "order: x\nnl: {title: T}\nfr: {title: T}\n",
            "glossary/gpu.yaml": "related: [nope]\nnl: {term: G, definition: D}\nfr: {term: G, definition: D}\n",
            "questions/gpu-role.yaml": "topic: basics\nanswer: Z\nnl: {question: Q, choices: [a, b], explanation: E}\nfr: {question: Q, choices: [a, b], explanation: E}\n",
        }
    )
    _, report = check(content_dir)
    assert [d.location.path for d in report.sorted()] == ["glossary/gpu.yaml", "questions/gpu-role.yaml", "topics/basics.yaml"]


def test_missing_translation_is_a_warning_and_strict_makes_it_an_error(make_content):
    content_dir = make_content(**{"glossary/gpu.yaml": "nl: {term: GPU, definition: D}\n"})
    _, report = check(content_dir)
    assert [d.message for d in report.warnings] == ["term 'gpu' has no 'fr' text"]
    assert not report.errors
    _, strict = check(content_dir, strict=True)
    assert [d.message for d in strict.errors] == ["term 'gpu' has no 'fr' text"]


def test_an_id_of_the_longest_length_is_valid(make_content):
    long_id = "q" * MAX_ID_BYTES
    content, report = check(make_content(**{"questions/long.yaml": f"id: {long_id}\n" + QUESTION.format(topic="basics")}))
    assert report.diagnostics == [] and long_id in content.questions


def test_a_site_language_other_than_the_default_without_a_title_is_a_warning(make_content):
    content, report = check(make_content(**{"site.yaml": "languages: [nl, fr, de]\nnl: {title: Studie}\nfr: {title: Étude}\n"}))
    site_warnings = [(str(d.location), d.code, d.message, d.hint) for d in report.warnings if d.location.path == "site.yaml"]
    assert site_warnings == [("site.yaml:1:1", "translation.missing", "site.yaml has no 'de' title", "add 'de: {title: ...}'")]
    assert not report.errors and set(content.site.texts) == {"nl", "fr"}


def test_block_in_a_non_site_language_is_valid(make_content):
    content, report = check(make_content(**{"topics/basics.yaml": "nl: {title: T}\nfr: {title: T}\nja: {title: トピック}\npt-BR: {title: Tópico}\n"}))
    assert report.diagnostics == []
    assert content.topics["basics"].texts["pt-BR"].title == "Tópico"


def test_error_shows_the_source_line_with_a_caret(make_content):
    _, report = check(
        make_content(
            **{
                "questions/gpu-role.yaml": "topic: basic\nanswer: A\nnl: {question: Q, choices: [a, b], explanation: E}\nfr: {question: Q, choices: [a, b], explanation: E}\n"
            }
        )
    )
    assert report.errors[0].format() == (
        "questions/gpu-role.yaml:1:8: error: unknown topic 'basic' [ref.unknown-topic]\n    topic: basic\n           ^\n  hint: did you mean 'basics'?"
    )


def test_the_cache_keeps_each_files_reading_and_its_problems_until_its_bytes_change(make_content, monkeypatch, tmp_path):
    """A build reads again only the files whose bytes changed; the others' readings come from
    the cache (through its file too) and give the same records and problems, strict
    or not, as reading every file."""
    from studysite.content import validate
    from studysite.incremental import readings
    from studysite.incremental.cache import open_cache

    content_dir = make_content(**{"glossary/gpu.yaml": "nl: {term: GPU, definition: D}\n", "questions/q2.yaml": "topic: nope\nanswer: A\n"})
    reads = []
    read = validate.read_record
    monkeypatch.setattr(readings, "read_record", lambda path, kind, data, languages: reads.append(path) or read(path, kind, data, languages))

    def run(cache, strict=False):
        report = Report(strict=strict)
        site, found = readings.read_content_files(content_dir, report, cache=cache)
        content = validate.content_of(site, found, report)
        return content, [d.format() for d in report.diagnostics]

    monkeypatch.setenv("STUDYSITE_CACHE_DIR", str(tmp_path / "cache"))
    cache = open_cache(content_dir, stamp="test")
    first = run(cache)
    assert validate_content(load_documents(content_dir, Report()), Report()) == first[0]
    assert any("translation.missing" in d for d in first[1]) and any("ref.unknown" in d for d in first[1])
    assert sorted(reads) == ["glossary/gpu.yaml", "questions/gpu-role.yaml", "questions/q2.yaml", "topics/basics.yaml"]
    cache.save()
    reads.clear()
    again = run(open_cache(content_dir, stamp="test"))
    assert again == first and reads == []
    strict = run(open_cache(content_dir, stamp="test"), strict=True)
    assert [d.replace(": error: ", ": warning: ") for d in strict[1]] == [d.replace(": error: ", ": warning: ") for d in first[1]] != strict[1]
    (content_dir / "glossary/gpu.yaml").write_text("nl: {term: GPU, definition: DD}\n", encoding="utf-8")
    run(cache)
    assert reads == ["glossary/gpu.yaml"]


def test_a_build_does_not_read_again_a_file_whose_digest_it_has_and_whose_reading_is_kept(make_content, monkeypatch, tmp_path):
    from studysite.incremental import readings
    from studysite.incremental.cache import open_cache
    from studysite.incremental.inputs import read_inputs

    content_dir = make_content()
    monkeypatch.setenv("STUDYSITE_CACHE_DIR", str(tmp_path / "cache"))
    cache = open_cache(content_dir, stamp="test")
    first = readings.read_content_files(content_dir, Report(), cache=cache)
    opened = []
    read = readings.read_file_bytes
    monkeypatch.setattr(readings, "read_file_bytes", lambda path, relative, report: opened.append(relative) or read(path, relative, report))
    (content_dir / "glossary/gpu.yaml").write_text("nl: {term: GPU, definition: Anders.}\nfr: {term: GPU, definition: Autre.}\n", encoding="utf-8")
    listed = read_inputs([content_dir], "", "test").listed[content_dir]
    again = readings.read_content_files(content_dir, Report(), cache=cache, listed=listed)
    assert opened == ["glossary/gpu.yaml"]  # the one file edited since
    assert [r for r in again[1] if r.path != "glossary/gpu.yaml"] == [r for r in first[1] if r.path != "glossary/gpu.yaml"]


def test_many_new_files_read_by_forked_processes_give_what_one_process_gives(make_content):
    from studysite.incremental import readings
    from studysite.workers import WORTH_A_FORK

    files = {f"questions/q{n:03}.yaml": f"topic: basics\nanswer: A\nnl: {{question: Vraag {n}?, choices: [Ja, Nee]}}\n" for n in range(WORTH_A_FORK + 6)}
    files["questions/q007.yaml"] = "topic: [unclosed\n"  # a YAML error, told by the process that read it
    content_dir = make_content(**files)
    alone, shared = Report(strict=True), Report(strict=True)
    one = readings.read_content_files(content_dir, alone, jobs=1)
    two = readings.read_content_files(content_dir, shared, jobs=2)
    assert one == two and {f"questions/q{n:03}.yaml" for n in range(WORTH_A_FORK + 6) if n != 7} <= {r.path for r in two[1]}
    assert [d.format() for d in shared.diagnostics] == [d.format() for d in alone.diagnostics]
    assert [d.code for r in two[1] if r.path == "questions/q007.yaml" for d in r.diagnostics] == ["yaml.syntax"]


# -- question types ------------------------------------------------------------------------

TYPED = "topic: basics\ntype: {type}\n{record}nl:\n{nl}fr:\n{fr}"


def typed_question(kind: str, record: str = "", nl: str = "", fr: str = "") -> dict[str, str]:
    block = "  question: Q\n  explanation: E\n"
    return {"questions/q.yaml": TYPED.format(type=kind, record=record, nl=block + nl, fr=block + (fr or nl))}


TYPE_CASES = {
    "multiple: a letter outside the choices": (
        typed_question("multiple", "answer: [A, D]\n", "  choices: [a, b, c]\n"),
        "questions/q.yaml:3:9: answer 'D' is outside the 3 choices (A-C)",
    ),
    "multiple: a letter twice": (typed_question("multiple", "answer: [A, a]\n", "  choices: [a, b, c]\n"), "questions/q.yaml:3:13: 'answer' names A twice"),
    "true-false: not true or false": (typed_question("true-false", "answer: maybe\n"), "questions/q.yaml:3:9: 'answer' must be true or false, not 'maybe'"),
    "typed: no accepted answers in one language": (typed_question("typed", "", "  accept: [x]\n", "  unit: x\n"), "questions/q.yaml:8:3: the 'fr' block has no 'accept'"),
    "typed: accept missing in a site language": (
        {"questions/q.yaml": "topic: basics\ntype: typed\nnl: {question: Q, explanation: E, accept: [x]}\nfr: {question: Q, explanation: E}\n"},
        "questions/q.yaml:4:5: the 'fr' block has no 'accept'",
    ),
    "typed: two blanks": (
        {"questions/q.yaml": "topic: basics\ntype: typed\nnl: {question: 'A ___ en ___', explanation: E, accept: [x]}\nfr: {question: Q, explanation: E, accept: [x]}\n"},
        "questions/q.yaml:3:16: the 'nl' question has 2 blanks (___)",
    ),
    "numeric: not a number": (typed_question("numeric", "answer: nine\n"), "questions/q.yaml:3:9: 'answer' must be a number, not 'nine'"),
    "numeric: a negative tolerance": (typed_question("numeric", "answer: 9.81\ntolerance: -1\n"), "questions/q.yaml:4:12: 'tolerance' must not be negative, not -1"),
    "order: two equal items": (typed_question("order", "", "  items: [a, b, A]\n"), "questions/q.yaml:6:17: 'items' lists 'A' twice"),
    "order: counts differ": (
        typed_question("order", "", "  items: [a, b, c]\n", "  items: [a, b, c, d]\n"),
        "questions/q.yaml:10:10: the 'fr' block has 4 items but the 'nl' block has 3",
    ),
    "match: a pair of three": (typed_question("match", "", "  pairs: [[a, 1], [b, 2, 3]]\n"), "questions/q.yaml:6:19: a pair has 2 sides, not 3"),
    "match: a right side twice": (typed_question("match", "", "  pairs: [[a, 1], [b, 1]]\n"), "questions/q.yaml:6:23: 'pairs' lists '1' twice"),
    "a key of another type": (typed_question("order", "answer: A\n", "  items: [a, b, c]\n"), "questions/q.yaml:3:1: unknown key 'answer'"),
    "an unknown type": (typed_question("sorting"), "questions/q.yaml:2:7: 'type' must be 'single' or 'multiple' or 'true-false' or 'typed' or 'numeric' or 'order' or 'match', not 'sorting'"),
    "feedback for fewer choices": (
        typed_question("single", "answer: A\n", "  choices: [a, b]\n  feedback: [x]\n", "  choices: [a, b]\n"),
        "questions/q.yaml:8:13: the 'nl' block has 1 feedback text for 2 choices",
    ),
}


@pytest.mark.parametrize("name", TYPE_CASES)
def test_question_type_rule(make_content, name):
    files, expected = TYPE_CASES[name]
    _, report = check(make_content(**files))
    assert expected in [f"{d.location}: {d.message}" for d in report.errors], [f"{d.location}: {d.message}" for d in report.errors]


def test_a_key_of_another_type_says_which_type_takes_it(make_content):
    _, report = check(make_content(**typed_question("order", "answer: A\n", "  items: [a, b, c]\n")))
    (error,) = report.errors
    assert error.hint == "'answer' belongs to questions of type single or multiple or true-false or numeric; this one is of type order"


def test_each_type_reads_into_its_model(make_content):
    files = {
        **{f"questions/{name}.yaml": text for name, text in [("m", "topic: basics\ntype: multiple\nanswer: 'A, c'\nnl: {question: Q, choices: [a, b, c], feedback: ['', x, ''], explanation: E}\n")]},
        "questions/t.yaml": "topic: basics\ntype: true-false\nanswer: true\nnl: {question: Q, explanation: E}\n",
        "questions/y.yaml": "topic: basics\ntype: typed\naccents: ignore\nnl: {question: 'Q ___', explanation: E, accept: [\"6\", zes]}\n",
        "questions/n.yaml": "topic: basics\ntype: numeric\nanswer: 9.810\ntolerance: 0.05\nnl: {question: Q, explanation: E, unit: m/s²}\n",
        "questions/o.yaml": "topic: basics\ntype: order\nnl: {question: Q, explanation: E, items: [a, b, c]}\n",
        "questions/p.yaml": "topic: basics\ntype: match\nnl: {question: Q, explanation: E, pairs: [[a, '1'], [b, '2']]}\n",
    }
    content, report = check(make_content(**files))
    assert report.errors == []
    q = content.questions
    assert (q["m"].type, q["m"].answer, q["m"].texts["nl"].feedback) == ("multiple", (0, 2), ("", "x", ""))
    assert (q["t"].answer, q["y"].accents, q["y"].texts["nl"].accept) == (True, "ignore", ("6", "zes"))
    assert (str(q["n"].answer), str(q["n"].tolerance), q["n"].texts["nl"].unit) == ("9.810", "0.05", "m/s²")
    assert q["o"].texts["nl"].items == ("a", "b", "c") and q["p"].texts["nl"].pairs == (("a", "1"), ("b", "2"))


def test_the_exam_offers_20_questions_and_30_minutes_unless_site_yaml_says_otherwise(make_content):
    content, report = check(make_content())
    assert (content.site.exam.questions, content.site.exam.minutes) == (20, 30)
    content, report = check(make_content(**{"site.yaml": SITE_YAML + "exam: {questions: 40, minutes: 90}\n"}))
    assert report.diagnostics == [] and (content.site.exam.questions, content.site.exam.minutes) == (40, 90)
    content, report = check(make_content(**{"site.yaml": SITE_YAML + "exam: {questions: 0, minutes: 2.5}\n"}))
    found = [(str(d.location), d.code, d.message) for d in report.errors]
    assert found == [
        ("site.yaml:6:19", "value.range", "'questions' must be a whole number from 1 to 1000, not 0"),
        ("site.yaml:6:31", "value.range", "'minutes' must be a whole number from 1 to 600, not 2.5"),
    ]
