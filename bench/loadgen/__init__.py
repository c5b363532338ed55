"""The load generator behind ``bench/load.py``: probes, servers under test, bot clients, workers."""
