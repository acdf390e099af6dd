"""Incremental builds: every cache, the kept model, page keys and quick edits. Domain packages never import this one; it wraps them."""
