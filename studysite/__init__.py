"""Studysite: a static-site generator for multilingual study material."""

__version__ = "0.2.0"  # the same as pyproject.toml's; the pin a new site gets (studysite new)
