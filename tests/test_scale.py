"""A smaller version of the scale target (20,000 questions in 3 languages build in under
2 GiB): 1,000 questions must stay well under a twentieth of that, search index included."""

import subprocess
import sys

from conftest import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
from make_corpus import write_corpus  # noqa: E402

QUESTIONS = 1000
PEAK_LIMIT_MIB = 150

# Linux counts the memory a process had before exec into its peak, and a child forked
# from this large test process starts as large as it. A small Python forks the build and
# reports what the kernel measured for it and the Pagefind runs it waited for.
MEASURE = """
import os, subprocess, sys
process = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(process.pid, 0)
print(usage.ru_maxrss, os.waitstatus_to_exitcode(status))
"""


def test_generated_corpus_builds_with_flat_memory(tmp_path):
    write_corpus(tmp_path / "content", QUESTIONS, ["nl", "fr", "de"])
    build = [sys.executable, "build.py", "--content", str(tmp_path / "content"), "--out", str(tmp_path / "site")]
    result = subprocess.run([sys.executable, "-c", MEASURE, *build], cwd=ROOT, capture_output=True, text=True, check=True)
    peak_kib, status = map(int, result.stdout.split())
    assert status == 0, result.stderr
    assert len(list((tmp_path / "site").rglob("*.html"))) == 3368  # 404.html and the three offline pages included
    assert peak_kib / 1024 < PEAK_LIMIT_MIB, f"peak memory {peak_kib / 1024:.0f} MiB"
