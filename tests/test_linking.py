"""Linking: term names in text become links, by the matching rules of SPEC section 5."""

import re

import pytest

from studysite.text.linking import TermMatcher, _trie_pattern


def href(term_id):
    return f"../../glossary/{term_id}/"


MATCHER = TermMatcher.build(
    {
        "data-parallelism": ("Parallélisme de données",),
        "gpu": ("GPU",),
        "recall": ("Rappel",),
        "attention": ("attention", "auto-attention"),
        "kv-cache": ("KV-cache", "KV cache"),
        "ja-data": ("データ並列",),
        "rd": ("R&D",),
    }
)


def test_case_insensitive_whole_words():
    assert MATCHER.find("le parallélisme de données et les gpu") == {"data-parallelism", "gpu"}
    assert MATCHER.find("Rappelons que la GPUs-farm") == set()


def test_a_link_shows_the_text_as_written_in_any_case():
    assert MATCHER.link("Een gpu en de PARALLÉLISME DE DONNÉES", href) == (
        'Een <a class="term" href="../../glossary/gpu/">gpu</a> en de <a class="term" href="../../glossary/data-parallelism/">PARALLÉLISME DE DONNÉES</a>'
    )
    # "İ" lower-cases to two characters: what follows it is found at its own place still
    assert MATCHER.link("İzmir: de GPU", href) == 'İzmir: de <a class="term" href="../../glossary/gpu/">GPU</a>'


def test_french_elision():
    assert MATCHER.find("l'attention et d’attention") == {"attention"}


def test_longest_name_wins():
    linked = MATCHER.link("l'auto-attention", href)
    assert linked == 'l\'<a class="term" href="../../glossary/attention/">auto-attention</a>'


def test_japanese_substring():
    assert MATCHER.find("データ並列では勾配を平均する") == {"ja-data"}


def test_names_across_line_breaks_and_escaped_characters():
    assert MATCHER.find("the KV\ncache grows; R&amp;D pays") == {"kv-cache", "rd"}


def test_never_inside_links_or_code():
    fragment = '<a href="x">GPU</a> <code>GPU</code> <pre><code>GPU</code></pre>'
    assert MATCHER.find(fragment) == set()
    assert MATCHER.link(fragment, href) == fragment


def test_only_first_mention_is_linked_and_tags_are_untouched():
    linked = MATCHER.link('<p class="GPU">GPU and GPU</p>', href)
    assert linked == '<p class="GPU"><a class="term" href="../../glossary/gpu/">GPU</a> and GPU</p>'


def test_skip_leaves_a_term_unlinked():
    assert MATCHER.link("GPU", href, skip="gpu") == "GPU"


def test_empty_matcher():
    empty = TermMatcher.build({})
    assert empty.find("anything") == set() and empty.link("x", href) == "x"


def test_never_inside_math():
    mathml = '<math display="inline" alttext="GPU"><mrow><mtext>GPU</mtext></mrow></math>'
    assert MATCHER.link(mathml + " en GPU", href) == mathml + ' en <a class="term" href="../../glossary/gpu/">GPU</a>'


def test_term_language_name_links_like_an_alias(tmp_path):
    from conftest import minimal_files, write_files

    from studysite.content.graph import build_graph
    from studysite.content.html import convert_texts
    from studysite.content.load import load_documents
    from studysite.content.validate import validate_content
    from studysite.diagnostics import Report

    site = "languages: [nl, fr]\nterm_language: ja\nnl: {title: S}\nfr: {title: S}\n"
    term = "ja: {term: データ並列}\nnl: {term: Dataparallellisme, definition: D}\nfr: {term: Parallélisme de données, definition: D}\n"
    question = "topic: basics\nanswer: A\nnl: {question: 'Wat is データ並列?', choices: [a, b], explanation: E}\nfr: {question: 'Rien', choices: [a, b], explanation: E}\n"
    content_dir = write_files(tmp_path / "content", minimal_files(**{"site.yaml": site, "glossary/gpu.yaml": term, "questions/gpu-role.yaml": question}))
    report = Report()
    content = validate_content(load_documents(content_dir, report), report)
    graph = build_graph(content, convert_texts(content))
    assert graph.languages["nl"].terms_by_question["gpu-role"] == ("gpu",)
    assert graph.languages["fr"].terms_by_question["gpu-role"] == ()
    linked = graph.matchers["nl"].link("Wat is データ並列?", href)
    assert linked == 'Wat is <a class="term" href="../../glossary/gpu/">データ並列</a>?'


def test_names_in_both_scripts_are_found_left_to_right():
    """Word names and Chinese or Japanese names are looked for apart, and found as one scan
    would: "GPU" is no whole word inside "GPUメモリ", which is a name of its own."""
    matcher = TermMatcher.build({"gpu": ("GPU",), "gpu-memory": ("GPUメモリ",), "memory": ("メモリ",)})
    text = "GPUメモリ と GPU、メモリ"
    assert matcher.find(text) == {"gpu", "gpu-memory", "memory"}
    assert matcher.link(text, href) == (
        '<a class="term" href="../../glossary/gpu-memory/">GPUメモリ</a> と '
        '<a class="term" href="../../glossary/gpu/">GPU</a>、'
        '<a class="term" href="../../glossary/memory/">メモリ</a>'
    )


def test_names_found_after_the_other_scripts_names_run_out():
    """Once one script's names are all found, the other's are scanned for alone, from where
    the last match ended: every name after that point is still found, in order."""
    matcher = TermMatcher.build({"gpu": ("GPU",), "tensor": ("tensor core",), "memory": ("メモリ",), "data": ("データ",)})
    cjk_first = "メモリ: GPU, a tensor core, GPUs and GPU"
    assert [(cjk_first[start:end], term) for start, end, term in matcher.first_mentions(cjk_first)] == [
        ("メモリ", "memory"),
        ("GPU", "gpu"),
        ("tensor core", "tensor"),
    ]
    words_first = "GPU その後 メモリ と データ"
    assert [term for _, _, term in matcher.first_mentions(words_first)] == ["gpu", "memory", "data"]
    assert matcher.link("xGPU GPU", href) == 'xGPU <a class="term" href="../../glossary/gpu/">GPU</a>'


def test_names_of_any_length_are_found():
    """The prefix tree is made into a pattern without recursion: a name of 500 or 5,000
    characters (a node per character) is found like any other."""
    for length in (500, 5000):
        name, alias = "x" * length, " ".join(["mot"] * (length // 4))
        matcher = TermMatcher.build({"long": (name, alias), "short": ("xx",)})
        assert matcher.find(f"<p>a {name} b</p>") == {"long"} and matcher.find(f"<p>{alias.replace(' ', chr(10))}</p>") == {"long"}
        assert matcher.find("<p>xx</p>") == {"short"} and matcher.find(f"<p>{name}x</p>") == set()


def test_names_nested_too_deep_for_a_prefix_tree_are_found_alike():
    """Names each a prefix of the next, 600 deep, are too deep for re's parser as a
    prefix tree; as one alternation they are found the same way: the longest, whole words."""
    names = tuple(" ".join(["w"] * depth) for depth in range(1, 601)) + tuple("が" * depth for depth in range(1, 601))
    with pytest.raises(RecursionError):  # the prefix tree, as re would have it
        re.compile(_trie_pattern(list(names)))
    matcher = TermMatcher.build({"deep": names, "other": ("w w x",)})
    text = "<p>w w x, w w w w, がが</p>"
    assert [(text[start:end], term) for start, end, term in matcher.first_mentions(text)] == [("w w x", "other"), ("w w w w", "deep")]
    assert [text[m.start() : m.end()] for m in matcher._matches(text)] == ["w w x", "w w w w", "がが"]


def test_never_inside_character_references():
    """A name that is also the name or number of a character reference ("amp", "lt", "123",
    "x1F") is not found inside one: the reference would be broken open by the link, and the
    text counted as naming the term."""
    matcher = TermMatcher.build({"amp": ("AMP",), "lt": ("LT",), "n": ("123",), "hex": ("x1F",), "rd": ("R&D",)})
    references = "Wat doet R&amp;D met AT&amp;T? x &lt; y &#123; &#x1F; &#X1f;"
    assert matcher.find(references) == {"rd"}
    assert matcher.link(references, href) == references.replace("R&amp;D", '<a class="term" href="../../glossary/rd/">R&amp;D</a>')
    assert matcher.find("amp, lt; 123 en x1f") == {"amp", "lt", "n", "hex"}  # outside references they are names still
