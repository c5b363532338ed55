"""The websocket edge: message schemas, match and lobby sockets, relays, rate limits, grabs."""
