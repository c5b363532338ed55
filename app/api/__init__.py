"""REST: routers by resource, shared dependencies, and the one place errors become replies."""
