"""Languages: UI catalogs and locale data, content translated in PO files, the translators' workflow, translation status."""
