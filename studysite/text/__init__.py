"""Text: content Markdown and TeX made into safe HTML, and glossary terms found and linked in it."""
