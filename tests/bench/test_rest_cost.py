"""The in-process REST cost bench, CI-sized: tables open one at a time and several at once,
and each round prints its CPU per table."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> list[str]:
    done = subprocess.run(
        [
            sys.executable, "bench/rest_cost.py",
            "--tables", "4", "--repeat", "1", "--warmup", "1", *args,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )  # fmt: skip
    return [line for line in done.stdout.splitlines() if line.startswith("round")]


def test_one_at_a_time_prints_each_request_kind() -> None:
    [line] = run()
    assert re.fullmatch(
        r"round 1: [\d.]+ ms CPU per table; µs per request: "
        r"account \d+ lobby \d+ join \d+ start \d+",
        line,
    ), line


def test_several_at_once_print_the_connections_opened() -> None:
    [line] = run("--concurrency", "3")
    assert re.fullmatch(
        r"round 1: [\d.]+ ms CPU per table, 3 at once; connections opened: \d+", line
    ), line
