"""The load generator end to end: real servers, real sockets, bot clients, one report each."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load(*args: str) -> list[dict[str, object]]:
    done = subprocess.run(
        [sys.executable, "bench/load.py", "--grace", "3", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
        check=True,
    )
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def test_tally_matches_against_rampart_and_the_echo_relay() -> None:
    rampart, echo = load("--matches", "3", "--seconds", "2", "--warmup", "0.5", "--think", "100")
    for result in (rampart, echo):
        assert result["ok"] is True and result["matches_active"] == 3
        assert result["errors"] == dict(
            connect=0, disconnect=0, error=0, rejected=0, slow_over_5s=0, unacked_at_end=0
        )
    assert (rampart["peer"], echo["peer"]) == ("rampart", "rampart-echo")


def test_ambush_tables_in_two_load_processes() -> None:
    [result] = load(
        "--workload", "ambush", "--matches", "2", "--seconds", "5", "--warmup", "0.5",
        "--no-echo", "--procs", "2",
    )  # fmt: skip
    assert result["ok"] is True and result["load_procs"] == 2
    errors = result["errors"]
    assert isinstance(errors, dict)
    # Bots may earn refusals (a late call); nothing may break.
    assert (errors["connect"], errors["disconnect"], errors["error"]) == (0, 0, 0)
    assert result["moves_per_s"] > 0
    assert "latency_ms_turn_actions" in result and "latency_ms_grabs" in result


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="no redis-server")
def test_tally_matches_on_two_server_processes_with_seats_spread_over_both() -> None:
    [result] = load(
        "--matches", "4", "--seconds", "2", "--warmup", "0.5", "--think", "100",
        "--no-echo", "--nodes", "2", "--spread",
    )  # fmt: skip
    server = result["server"]
    assert isinstance(server, dict) and server["processes"] == 2
    # Half the seats reach a process that does not own their match and are relayed.
    assert result["ok"] is True and result["matches_active"] == 4
    assert result["errors"] == dict(
        connect=0, disconnect=0, error=0, rejected=0, slow_over_5s=0, unacked_at_end=0
    )


def test_tables_opened_over_rest_during_the_window_beside_the_moves() -> None:
    [result] = load(
        "--matches", "3", "--seconds", "2", "--warmup", "0.5", "--think", "100",
        "--no-echo", "--procs", "2", "--open-rate", "4",
    )  # fmt: skip
    rest = result["rest"]
    assert isinstance(rest, dict)
    # 4 a second over a 2 s window, each table 9 requests (4 guests, lobby, 3 joins, start).
    assert (rest["tables_opened"], rest["tables_failed"], rest["requests"]) == (8, 0, 72)
    assert result["ok"] is True and result["matches_active"] == 3  # the played tables only
