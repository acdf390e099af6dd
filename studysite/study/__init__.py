"""Study: what the reader takes along: Anki decks and the offline web app."""
