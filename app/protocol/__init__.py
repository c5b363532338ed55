"""The socket protocol's server-to-client messages as types: what the server sends, typed
where it is built and published from the same types (``app.realtime.contract``)."""
