"""The Rampart server: REST, websockets, sessions, persistence."""
