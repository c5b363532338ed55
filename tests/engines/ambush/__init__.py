"""Ambush! engine tests: rules, cards, race, views, bots and properties."""
