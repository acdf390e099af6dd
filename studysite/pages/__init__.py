"""Pages: every page of a site planned, with its URL and the view model its template reads."""
