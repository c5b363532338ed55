"""Games the server registers only on request: ``tally``, the shared benchmark workload."""
