"""The websocket edge: message schemas, the match and lobby sockets, rate limits, grabs."""
