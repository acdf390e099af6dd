"""Render: the Jinja environments, and every page rendered through its template."""
