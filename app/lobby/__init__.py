"""Lobbies: tables being set up (seats, bots, castle names, the name vote) and their live feed."""
