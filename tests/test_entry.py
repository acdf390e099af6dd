"""The entry points (`python build.py`, the installed `studysite`): Ctrl-C and SIGTERM are
answered from the first moment, while the modules of a build load."""

import subprocess
import sys
import tomllib

import pytest
from conftest import ROOT

# Run as a child: the signal argv[1] is sent when the module argv[2] is first imported, then
# the entry point argv[3] ("build.py", or a "module:function" as the installed script runs it)
# runs with the arguments that follow.
SIGNAL_WHILE_LOADING = """
import os, runpy, signal, sys

number, loading, entry = getattr(signal, sys.argv[1]), sys.argv[2], sys.argv[3]

class SignalOnImport:
    def find_spec(self, name, path=None, target=None):
        if name == loading:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), number)
        return None

sys.argv = [entry, *sys.argv[4:]]
sys.meta_path.insert(0, SignalOnImport())
if entry == "build.py":
    runpy.run_path(entry, run_name="__main__")
else:
    module, function = entry.split(":")
    sys.exit(getattr(__import__(module, fromlist=[function]), function)())
"""


def installed_entry_point() -> str:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]["studysite"]


@pytest.mark.parametrize("signal_name", ["SIGTERM", "SIGINT"])
@pytest.mark.parametrize("entry", ["build.py", "installed"])
def test_a_signal_while_the_modules_load_exits_130_saying_so(tmp_path, signal_name, entry):
    entry = installed_entry_point() if entry == "installed" else entry
    command = [sys.executable, "-c", SIGNAL_WHILE_LOADING, signal_name, "markdown", entry, "build", "--content", str(tmp_path / "content"), "--out", str(tmp_path / "site")]
    stopped = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert stopped.returncode == 130 and stopped.stderr == "Interrupted while starting; nothing was changed.\n", stopped.stderr
    assert not (tmp_path / "site").exists()


def test_the_installed_command_runs_the_command_line():
    command = [sys.executable, "-c", SIGNAL_WHILE_LOADING, "SIGTERM", "no-such-module", installed_entry_point(), "--help"]
    shown = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0 and "Build a multilingual study site" in shown.stdout
