"""Tournaments: formats and pairing (pure), standings, and the scheduling service."""
