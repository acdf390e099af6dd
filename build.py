#!/usr/bin/env python3
"""Studysite's command line; see `python build.py --help`."""

import sys

from studysite.cli import main

if __name__ == "__main__":
    sys.exit(main())
