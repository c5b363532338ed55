"""Benchmarks and the benchmark-only game ``tally`` (kept out of the engine registry)."""
