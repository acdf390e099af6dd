"""Published scripts and stylesheets without the comments that fill whole lines
(output/lean.py): meaning kept, anything ambiguous left whole, vendored code untouched."""

import shutil
import subprocess

import pytest

from studysite.output.lean import lean, lean_script, lean_stylesheet

SCRIPT = """\
/* A module's header,
   over lines. */

import { x } from "./x.js";

// a whole line
export function f() {
  /* one line */
  const url = "https://example.org/"; // after code: kept
  return x(url) /* kept */ + 1;
}
"""


def test_whole_line_comments_indentation_and_empty_lines_go_and_code_stays():
    assert (
        lean_script(SCRIPT)
        == 'import { x } from "./x.js";\nexport function f() {\nconst url = "https://example.org/"; // after code: kept\nreturn x(url) /* kept */ + 1;\n}\n'
    )


@pytest.mark.parametrize(
    "script",
    [
        "const s = `a\n// not a comment\n`;\n",  # a template literal over lines
        "f(); /* opened after code\n/* looks like a comment\n*/\ng();\n",
        'const s = "/*";\n// x\n',  # a comment sign in a string
        "/* ends */ f();\n",  # code after a comment's end
        "/* never closed\n",
        'const s = "a \\\n    b";\n',  # a string continued on the next line
    ],
)
def test_a_script_that_could_be_read_two_ways_is_left_whole(script):
    assert lean_script(script) == script


def test_stylesheet_comments_go_and_strings_stay():
    css = "/* head */\na { content: \"/* kept */\"; } /* tail */\nb::before { content: '*/'; }\n"
    assert lean_stylesheet(css) == "a { content: \"/* kept */\"; } b::before { content: '*/'; }\n"


def test_only_scripts_and_stylesheets_are_changed_and_vendored_code_never():
    data = b"/* licence */\nexport const a = 1;\n"
    assert lean("js/a.js", data) == b"export const a = 1;\n"
    assert lean("offline.mjs", b"  f();\n\n  g();") == b"f();\ng();"
    assert lean("vendor/ts-fsrs/index.mjs", data) == data
    assert lean("favicon.svg", b"<!-- x --><svg/>") == b"<!-- x --><svg/>"
    assert lean("js/latin1.js", b"/* \xe9 */\n") == b"/* \xe9 */\n"


def test_every_published_script_still_parses(sample_site, tmp_path):
    node = shutil.which("node")
    if not node:
        pytest.fail("node is needed to check the published scripts")
    scripts = [p for p in (sample_site / "assets").rglob("*") if p.suffix in (".js", ".mjs") and "vendor." not in str(p)]
    assert len(scripts) > 10
    for script in scripts:
        copy = tmp_path / (script.stem + ".mjs")  # checked as a module, as the pages load it
        copy.write_bytes(script.read_bytes())
        result = subprocess.run([node, "--check", str(copy)], capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, f"{script.name}: {result.stderr}"
