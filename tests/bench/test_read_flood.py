"""The read-flood bench end to end, CI-sized: a real server, live moves measured with and
without anonymous clients flooding the heavy reads, and one report."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_moves_are_measured_with_and_without_a_flood_of_reads() -> None:
    done = subprocess.run(
        [
            sys.executable, "bench/read_flood.py", "--matches", "2", "--think", "100",
            "--seconds", "1.5", "--warmup", "0.5", "--flooders", "3", "--rate", "0",
            "--versions", "100",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
        check=True,
    )  # fmt: skip
    [result] = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    for window in ("quiet", "flood"):
        moves = result[window]
        assert moves["moves"] > 0 and moves["errors"] == {}
        assert 0 < moves["p50_ms"] <= moves["p99_ms"] <= moves["max_ms"]
    reads = result["reads"]
    # Every read was answered (each reader goes round every path: once it has made as many
    # reads as there are paths, every kind was read).
    assert reads["requests"] > 0 and set(reads["codes"]) == {"200"}
    kinds = {"state", "state_at", "events", "match", "history", "player", "ladders", "tournaments"}
    assert set(reads["latency_ms"]) <= kinds
    if reads["requests"] >= reads["clients"] * reads["paths"]:
        assert set(reads["latency_ms"]) == kinds
    assert "live moves p50" in done.stderr
