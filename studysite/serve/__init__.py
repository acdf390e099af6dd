"""Serve: a local preview server that rebuilds and reloads on change."""
