"""E-mail notifications of correspondence matches: players' addresses, an outbox, a sender."""
