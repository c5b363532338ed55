"""Scoring: the 1500-point ledger (pure functions)."""
