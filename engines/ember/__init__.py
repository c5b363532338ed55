"""Ember: Shroud of the Shadow Demon: per-hero decks, modes and response cards."""
