"""Ambush! (rulebook v2.1 with the house deck): the engine package; see README.md here."""
