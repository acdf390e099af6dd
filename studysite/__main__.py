"""`python -m studysite`: the same program as the installed `studysite` command."""

import sys

from studysite.cli import main

sys.exit(main())
