#!/usr/bin/env python3
"""Studysite's command line; see `python build.py --help`."""

import os
import sys

from studysite.entry import main  # answers Ctrl-C and SIGTERM before the build's modules load

if __name__ == "__main__":
    status = main()
    # A build leaves a large model in memory, and freeing it object by object at exit takes
    # longer than a small site's whole build. Every file is written and closed by now; only
    # the standard streams are left to flush.
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except OSError:  # a closed pipe: nothing more can be said
            pass
    os._exit(status)
