"""The sleeping-matches bench end to end, CI-sized: matches seeded and put to sleep, the
servers' memory read, and sleeping matches woken by a first move each."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_sleeping_matches_are_measured_and_woken_by_a_first_move() -> None:
    done = subprocess.run(
        [
            sys.executable, "bench/sleeping.py", "--matches", "60", "--live", "3",
            "--wake", "6", "--settle", "0.1", "--json",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
        check=True,
    )  # fmt: skip
    figures = json.loads(done.stdout)
    assert figures["matches"] == 60 and figures["woken"] == 6
    for key in ("rss_empty_mb", "rss_live_mb", "rss_asleep_mb", "rss_after_wakes_mb"):
        assert figures[key] > 0
    for key in ("hello_to_welcome_ms", "move_to_ack_ms", "hello_to_ack_ms"):
        assert 0 < figures[key]["p50"] <= figures[key]["p99"]
