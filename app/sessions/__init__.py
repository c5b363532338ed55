"""Live matches: one authoritative GameSession per match, the hub that owns them, bots, clocks."""
