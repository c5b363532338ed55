"""Several server processes (DESIGN.md sec. 9): match owners, locks, the Redis bus, a ws client."""
