"""Grab races: the arbiter, its claims, link measurement, suspicion flags."""
