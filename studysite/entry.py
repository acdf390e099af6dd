"""The command's entry point (`studysite`, and `python build.py`): Ctrl-C and SIGTERM are
answered from the first moment, before the modules of a build are loaded (a tenth of a
second and more), which would otherwise end the process by SIGTERM (status 143) or with a
traceback. Nothing is imported here but what Python has loaded already."""

import signal
import sys

EXIT_INTERRUPTED = 130


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def main() -> int:
    """The command line (cli.main), once it is loaded."""
    signal.signal(signal.SIGINT, _interrupt)
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        from studysite.cli import main as command_line
    except KeyboardInterrupt:
        print("Interrupted while starting; nothing was changed.", file=sys.stderr)
        return EXIT_INTERRUPTED
    try:
        return command_line()
    except KeyboardInterrupt:  # in the instant between the command line's end (it said how it ended) and this
        return EXIT_INTERRUPTED
