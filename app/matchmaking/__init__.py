"""Quick play: the matchmaking queue (store, pairing, service) and rematches."""
