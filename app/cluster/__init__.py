"""Several server processes: match owners, locks, the Redis bus, a ws client."""
