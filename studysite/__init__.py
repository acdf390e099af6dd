"""Studysite: a static-site generator for multilingual study material."""

__version__ = "0.1.0"
