"""The versions of Studysite's dependencies that its own test suite ran with, each with its
hashes: requirements.lock beside this file, uv.lock exported by scripts/lock (what a build
needs, none of the test tools) and shipped in the package.

A site's Pages workflow (starter/pages.yml) installs Studysite without its dependencies,
then these, so a deploy builds with what was tested, never with whatever was released that
day. This module imports nothing else, so it runs before any dependency is installed:

    python -m pip install --require-hashes -r "$(python -m studysite.locked)"
"""

from pathlib import Path

LOCKED_REQUIREMENTS = Path(__file__).resolve().with_name("requirements.lock")

if __name__ == "__main__":
    print(LOCKED_REQUIREMENTS)
