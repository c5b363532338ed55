"""Several server processes (DESIGN.md sec. 9): match owners, relays, locks, Redis fan-out."""
