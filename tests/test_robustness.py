"""Broken and hostile content never crashes a build, never injects script, never escapes
the output folder: each build succeeds, or ends with exit 1 and located errors."""

import re
import string

import yaml
from conftest import minimal_files, run_cli, write_files
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

LOCATED = re.compile(r"^[^\s:][^:]*:\d+:\d+: (error|warning): .+ \[[\w.-]+\]$")
KEYS = [
    "topic",
    "answer",
    "terms",
    "related",
    "order",
    "id",
    "nl",
    "fr",
    "ja",
    "question",
    "choices",
    "explanation",
    "term",
    "definition",
    "title",
    "aspects",
    "label",
    "values",
    "x",
]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=40),
    st.sampled_from(["A", "basics", "gpu", "", "<script>alert(1)</script>"]),
)
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(KEYS), inner, max_size=5)), max_leaves=25)
records = st.dictionaries(st.sampled_from(KEYS), values, max_size=7)
file_names = st.one_of(
    st.sampled_from(["ok", "../escape", "Big File", "a..b", ".hidden", "UPPER", "ünïcode", "-x-"]),
    st.text(string.ascii_lowercase + "-", min_size=1, max_size=12),
)
kinds = st.sampled_from(["topics", "questions", "glossary", "comparisons"])


def raw_texts():
    return st.one_of(
        records.map(lambda r: yaml.safe_dump(r, allow_unicode=True)),
        st.text(max_size=200),
        st.sampled_from(
            [
                "a: &a [x, x]\nb: &b [*a, *a, *a, *a]\nc: &c [*b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c]\n",
                "nl: {title: T}\nnl: {title: U}\n",
                "nl:\n  title: [unclosed\n",
                "a: " + "[" * 70 + "]" * 70 + "\n",
                "\ufeffnl: {title: BOM}\n",
                "!!python/object/apply:os.system ['echo hacked']\n",
                "nl: {title: x" + "y" * 100_000 + "}\n",
            ]
        ),
    )


@settings(max_examples=80, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(files=st.lists(st.tuples(kinds, file_names, raw_texts()), max_size=4), raw_bytes=st.one_of(st.none(), st.binary(max_size=64)))
def test_any_content_builds_or_fails_with_located_errors(tmp_path_factory, files, raw_bytes):
    root = tmp_path_factory.mktemp("fuzz")
    content = write_files(root / "content", minimal_files())
    for kind, name, text in files:
        path = content / kind / f"{name}.yaml"
        if root not in path.resolve().parents:
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    if raw_bytes is not None:
        (content / "questions" / "raw.yaml").write_bytes(raw_bytes)
    result = run_cli("build", "--content", content, "--out", root / "site", "--no-search")
    assert result.status in (0, 1), result.err
    assert "Traceback" not in result.err
    lines = [line for line in result.err.splitlines() if ": error: " in line or ": warning: " in line]
    assert all(LOCATED.match(line) for line in lines), lines
    if result.status == 1:
        assert any(": error: " in line for line in lines)
        assert re.search(r"Build failed: \d+ errors?, \d+ warnings?\.$", result.err.rstrip())
        assert not (root / "site").exists()
    assert sorted(p.name for p in root.iterdir() if p.name != ".site.studysite-lock") == sorted(["content"] + (["site"] if result.status == 0 else []))
    if result.status == 0:
        for page in (root / "site").rglob("*.html"):
            html = page.read_text(encoding="utf-8")
            assert "<script>alert" not in html and "hacked" not in html


def test_hostile_markdown_is_inert_in_the_built_pages(make_content, tmp_path):
    hostile = {
        "questions/gpu-role.yaml": """\
            topic: basics
            answer: A
            nl:
              question: "<img src=https://evil.example/x.png alt=x onerror=alert(1)> [x](javascript:alert(1))"
              choices: ["<script>alert(1)</script>", "<iframe src=//evil.example></iframe>"]
              explanation: |
                <style>body{display:none}</style>
                [data](data:text/html;base64,PHNjcmlwdD4=) <a href="https://example.org" onclick="steal()">ok</a>
            fr: {question: q, choices: [a, b], explanation: e}
            """,
        "glossary/gpu.yaml": "nl: {term: '<b onmouseover=x>GPU</b>', definition: '<script>x</script>'}\nfr: {term: GPU, definition: D}\n",
    }
    result = run_cli("build", "--content", make_content(**hostile), "--out", tmp_path / "site", "--no-search")
    assert result.status == 0, result.err
    for page in (tmp_path / "site").rglob("*.html"):
        html = page.read_text(encoding="utf-8").lower()
        for needle in ("<script>", "javascript:", "data:text", "<iframe", "<style>"):
            assert needle not in html, f"{needle} in {page}"
        assert not re.search(r"<[a-z][^>]*\son[a-z]+\s*=", html), f"an event handler attribute in {page}"
    question = (tmp_path / "site/nl/questions/gpu-role/index.html").read_text(encoding="utf-8")
    assert '<a href="https://example.org" rel="noopener noreferrer">ok</a>' in question
    assert "&lt;b onmouseover=x&gt;GPU&lt;/b&gt;" in (tmp_path / "site/nl/glossary/gpu/index.html").read_text(encoding="utf-8")


def test_every_page_forbids_inline_script(make_content, tmp_path):
    assert run_cli("build", "--content", make_content(), "--out", tmp_path / "site", "--no-search").status == 0
    for page in (tmp_path / "site").rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert '<meta http-equiv="Content-Security-Policy" content="default-src &#39;self&#39;; script-src &#39;self&#39;' in html
        assert not re.search(r"<script(?![^>]*\b(?:src=|type=\"application/json\"))[^>]*>", html), page
