"""bench/peers.py: a Rampart run lifts the per-address limits; the table prints RSS per seat."""

from __future__ import annotations

import subprocess
from typing import Any

import pytest

from bench import peers


def test_a_rampart_run_lifts_the_per_address_limits_and_a_peer_run_is_left_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """All the load's clients come from 127.0.0.1: with the limits in force the first accounts
    are refused (429 ``rate/limited``) and the run fails at once."""
    seen: dict[str, Any] = {}

    def run(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
        seen[command[1]] = kwargs.get("env")
        return subprocess.CompletedProcess(command, 0, '{"ok": true}\n', "")

    monkeypatch.setattr(subprocess, "run", run)
    peers.run_one("rampart", 10, 500, 1, 1)
    peers.run_one("colyseus", 10, 500, 1, 1)
    lifted = seen["rampart"]
    for name in (
        "RAMPART_ACCOUNT_ADDRESS_LIMIT",
        "RAMPART_TABLE_ADDRESS_LIMIT",
        "RAMPART_TABLE_ACCOUNT_LIMIT",
        "RAMPART_READ_ADDRESS_LIMIT",
    ):
        assert lifted[name] == ""
    assert lifted["RAMPART_SOCKETS_PER_ADDRESS"] == "0"
    assert "PATH" in lifted  # the rest of the environment goes on
    assert seen["colyseus"] is None


def test_the_table_shows_the_servers_memory_per_connected_seat() -> None:
    result = {
        "peer": "rampart",
        "matches": 1000,
        "clients": 4000,
        "server": {"rss_mb_max_window": 338.4},
        "ok": True,
    }
    assert peers.per_seat_kib(result) == 86.6
    assert "| 86.6 |" in peers.table([result])
    assert peers.per_seat_kib({"clients": 4000, "server": {}}) is None
