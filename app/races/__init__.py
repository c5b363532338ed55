"""Grab races (DESIGN.md sec. 5): the arbiter, its claims, link measurement, suspicion flags."""
