"""`python -m studysite`: the same program as the installed `studysite` command, through the
same entry point (which answers Ctrl-C and SIGTERM before the build's modules load)."""

import sys

from studysite.entry import main

sys.exit(main())
