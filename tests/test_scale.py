"""A smaller version of the scale target (20,000 questions in 3 languages build in under
2 GiB): 1,000 questions must stay well under a twentieth of that, search index included."""

import os
import subprocess
import sys

from conftest import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
from make_corpus import write_corpus  # noqa: E402

QUESTIONS = 1000
PEAK_LIMIT_MIB = 150


def test_generated_corpus_builds_with_flat_memory(tmp_path):
    write_corpus(tmp_path / "content", QUESTIONS, ["nl", "fr", "de"])
    command = [sys.executable, "build.py", "--content", str(tmp_path / "content"), "--out", str(tmp_path / "site")]
    with open(tmp_path / "out.txt", "w") as out, open(tmp_path / "err.txt", "w") as err:
        process = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)  # its peak includes the Pagefind runs it waited for
    assert os.waitstatus_to_exitcode(status) == 0, (tmp_path / "err.txt").read_text()
    assert (tmp_path / "out.txt").read_text().startswith("Built 3359 pages in 3 languages")
    peak_mib = usage.ru_maxrss / 1024
    assert peak_mib < PEAK_LIMIT_MIB, f"peak memory {peak_mib:.0f} MiB"
