"""Exchange: questions in from spreadsheets and LMS banks, and out to LMS banks.

`studysite import` reads a CSV/TSV file (csv_import.py), a GIFT file (gift.py) or a Moodle
XML file (moodle.py) into drafts (drafts.py), checks every record they make against the
schema with the site's languages, and only then writes YAML records (importing.py,
yaml_layout.py). `studysite export` writes the questions of one language as Moodle XML,
GIFT or an IMS QTI 2.1 content package (exporting.py, moodle.py, gift.py, qti.py). Texts
go between Markdown and HTML in texts.py; images are resolved in media.py. Every field and
type is read from the schema (content/schema.py); a format knows only how it writes a type.
"""
