"""Output: the guarded writer, the static assets and the search index."""
