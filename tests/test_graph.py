"""The graph: editions per language, term usage and backlinks, related questions."""

from conftest import STUDY_CONTENT, minimal_files, write_files

from studysite.content.graph import build_graph, following_questions
from studysite.content.html import convert_texts
from studysite.content.load import load_documents
from studysite.content.validate import validate_content
from studysite.diagnostics import Report
from studysite.incremental.page_sources import PageSources, keyed_by_sources
from studysite.pipeline import Options, load


def graph_of(tmp_path, **overrides):
    content_dir = write_files(tmp_path / "content", minimal_files(**overrides))
    report = Report()
    content = validate_content(load_documents(content_dir, report), report)
    assert not report.errors, [d.format() for d in report.errors]
    return content, build_graph(content, convert_texts(content))


def question(stem: str, topic="basics", terms="[]"):
    return f"topic: {topic}\nanswer: A\nterms: {terms}\nnl: {{question: '{stem}', choices: [a, b], explanation: E}}\nfr: {{question: '{stem}', choices: [a, b], explanation: E}}\n"


def test_terms_found_by_name_and_listed_explicitly(tmp_path):
    _, graph = graph_of(
        tmp_path,
        **{
            "questions/q1.yaml": question("Waarom een gpu?"),
            "questions/q2.yaml": question("Niets", terms="[gpu]"),
            "questions/q3.yaml": question("Rappelons GPUs"),
        },
    )
    nl = graph.languages["nl"]
    assert nl.terms_by_question["q1"] == ("gpu",)
    assert nl.terms_by_question["q2"] == ("gpu",)
    assert nl.terms_by_question["q3"] == ()
    assert set(nl.questions_by_term["gpu"]) == {"q1", "q2", "gpu-role"}


def test_japanese_term_names_match_as_substrings(tmp_path):
    site = "languages: [ja]\nja: {title: 勉強}\n"
    _, graph = graph_of(
        tmp_path,
        **{
            "site.yaml": site,
            "topics/basics.yaml": "ja: {title: 基本}\n",
            "glossary/gpu.yaml": "ja: {term: データ並列, definition: 説明}\n",
            "questions/gpu-role.yaml": "topic: basics\nanswer: A\nja: {question: データ並列では何をしますか, choices: [あ, い], explanation: 説明}\n",
        },
    )
    assert graph.languages["ja"].terms_by_question["gpu-role"] == ("gpu",)


def test_more_questions_are_the_five_that_follow_wrapping_round():
    following = following_questions(["a", "b", "c", "d", "e", "f", "g"])
    assert following["a"] == ("b", "c", "d", "e", "f")
    assert following["d"] == ("e", "f", "g", "a", "b")
    assert following["g"] == ("a", "b", "c", "d", "e")
    assert following_questions(["a", "b", "c"]) == {"a": ("b", "c"), "b": ("c", "a"), "c": ("a", "b")}
    assert following_questions(["a"]) == {"a": ()}


def test_a_topic_lists_its_questions_by_order_then_file_path(tmp_path):
    def ordered(stem, order=None):
        return question(stem).replace("answer: A\n", f"answer: A\norder: {order}\n" if order is not None else "answer: A\n")

    _, graph = graph_of(
        tmp_path,
        **{
            "questions/a-last.yaml": ordered("Laatste"),
            "questions/b-second.yaml": ordered("Tweede", 2),
            "questions/c-first.yaml": ordered("Eerste", 1),
            "questions/d-also-second.yaml": ordered("Ook tweede", 2),
        },
    )
    nl = graph.languages["nl"]
    assert nl.questions_by_topic["basics"] == ("c-first", "b-second", "d-also-second", "a-last", "gpu-role")
    assert nl.more_questions["gpu-role"] == ("c-first", "b-second", "d-also-second", "a-last")


def test_sample_more_questions_follow_the_seeds():
    report = Report()
    loaded = load(Options(content_dir=STUDY_CONTENT), report)
    nl = loaded.graph.languages["nl"]
    assert nl.more_questions["data-parallelism"] == ("tensor-parallelism", "pipeline-micro-batches", "all-reduce", "gradient-checkpointing", "systolic-array")
    assert nl.more_questions["structured-sparsity"] == (
        "knowledge-distillation",
        "data-parallelism",
        "tensor-parallelism",
        "pipeline-micro-batches",
        "all-reduce",
    )
    assert nl.more_questions["embedding-lookups"] == (
        "software-stack-order",
        "training-vs-inference",
        "training-memory",
        "memory-7b-fp32-adam",
        "memory-7b-fp16-weights",
    )


def test_fallback_notice_shows_default_language_text(tmp_path):
    _, graph = graph_of(tmp_path, **{"glossary/gpu.yaml": "nl: {term: GPU, definition: D}\n"})
    assert graph.languages["fr"].edition.terms == {"gpu": "nl"}
    assert graph.languages["fr"].questions_by_term["gpu"] == ("gpu-role",)


def test_fallback_skip_leaves_the_record_and_its_dependants_out(tmp_path):
    site = "languages: [nl, fr]\nfallback: skip\nnl: {title: S}\nfr: {title: S}\n"
    _, graph = graph_of(
        tmp_path,
        **{
            "site.yaml": site,
            "topics/basics.yaml": "nl: {title: T}\n",
            "comparisons/c.yaml": "topic: basics\nterms: [gpu, gpu]\nnl: {title: C, aspects: [{label: L, values: [a, b]}]}\n",
        },
    )
    fr = graph.languages["fr"]
    assert fr.edition.topics == {} and fr.edition.questions == {} and fr.edition.comparisons == {}
    assert fr.questions_by_term["gpu"] == ()
    assert graph.languages["nl"].edition.comparisons == {"c": "nl"}


def test_related_terms_and_comparisons_by_topic(tmp_path):
    _, graph = graph_of(
        tmp_path,
        **{
            "glossary/cpu.yaml": "related: [gpu]\nnl: {term: CPU, definition: D}\nfr: {term: CPU, definition: D}\n",
            "comparisons/c.yaml": "topic: basics\nterms: [gpu, cpu]\nnl: {title: C, aspects: [{label: L, values: [a, b]}]}\nfr: {title: C, aspects: [{label: L, values: [a, b]}]}\n",
        },
    )
    nl = graph.languages["nl"]
    assert nl.related_terms["cpu"] == ("gpu",)
    assert nl.comparisons_by_topic["basics"] == ("c",)


def test_pages_name_every_record_they_show(tmp_path):
    content_dir = write_files(tmp_path / "content", minimal_files(**{"questions/q2.yaml": question("Een GPU?")}))
    loaded = load(Options(content_dir=content_dir), Report())
    pages = {p.path: p for p in loaded.pages}
    shown = PageSources(loaded.content, loaded.graph).of
    assert set(shown(pages["nl/questions/q2/"])) == {"questions/q2", "topics/basics", "glossary/gpu", "questions/gpu-role", "terms:nl"}
    assert set(shown(pages["nl/glossary/gpu/"])) == {"glossary/gpu", "questions/q2", "questions/gpu-role", "topics/basics", "terms:nl", "glossary:nl"}
    assert keyed_by_sources(pages["nl/questions/q2/"]) and not keyed_by_sources(pages["nl/"])
    assert set(shown(pages["nl/"])) == {"topics/basics"}
    assert shown(pages["nl/practice/basics/"])[:3] == ("topics/basics", "questions/gpu-role", "questions/q2")
    assert shown(pages["nl/search/"]) == ()
