"""Persistence: SQLAlchemy 2 models, the async engine, and repositories that own transactions."""
