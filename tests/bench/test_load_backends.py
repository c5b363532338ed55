"""What the load generator reads beside the servers (``bench/loadgen/backends.py``): the
servers' metrics over the window, the stores' counters per move, a process tree's CPU; and
one small run on two processes with a throwaway PostgreSQL that reports them."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.loadgen.backends import SideCounters, parse_metrics, postgres_bindir, tree_cpu_seconds
from bench.loadgen.probes import cpu_seconds

ROOT = Path(__file__).resolve().parents[2]

SCRAPE = """\
# HELP rampart_actions_total Actions accepted and made durable, by game.
rampart_actions_total{game="tally"} %(actions)s
rampart_action_commit_seconds_bucket{le="0.001"} %(fast)s
rampart_action_commit_seconds_bucket{le="0.01"} %(mid)s
rampart_action_commit_seconds_bucket{le="+Inf"} %(actions)s
rampart_action_commit_seconds_count %(actions)s
rampart_action_commit_seconds_sum %(sum)s
process_cpu_seconds_total 12.5
"""


def scrape(actions: float, fast: float, mid: float, total_s: float) -> str:
    return SCRAPE % dict(actions=actions, fast=fast, mid=mid, sum=total_s)


def test_the_window_is_the_difference_of_two_snapshots_summed_over_processes() -> None:
    before: dict[str, float] = {"at": 100.0}
    after: dict[str, float] = {"at": 110.0}
    parse_metrics(scrape(100, 100, 100, 0.05), before)
    parse_metrics(scrape(50, 50, 50, 0.02), before)  # a second process
    # 1,000 more actions: 900 committed within 1 ms, 95 more within 10 ms, 5 slower.
    parse_metrics(scrape(700, 640, 695, 1.05), after)
    parse_metrics(scrape(450, 410, 450, 0.52), after)
    after |= {"pg_commits": 250.0, "pg_rows_inserted": 1000.0, "pg_wal_bytes": 4e5}
    before |= {"pg_commits": 50.0, "pg_rows_inserted": 0.0, "pg_wal_bytes": 0.0}
    before |= {"redis_commands": 10.0, "redis_cmd_info": 3.0, "redis_cmd_set": 7.0}
    after |= {"redis_commands": 40.0, "redis_cmd_info": 6.0, "redis_cmd_set": 34.0}
    after |= {"pg_cpu_s": 2.0, "redis_cpu_s": 0.01}
    before |= {"pg_cpu_s": 1.5, "redis_cpu_s": 0.0}
    figures = SideCounters.figures(before, after)
    assert (figures["actions"], figures["actions_per_s"]) == (1000, 100.0)
    assert figures["commit"] == {
        "count": 1000,
        "mean_ms": 1.5,
        "p50_ms_at_most": 1.0,
        "p99_ms_at_most": 10.0,  # 995 of 1,000 within 10 ms
    }
    postgres = figures["postgres"]
    assert (postgres["commits_per_move"], postgres["moves_per_commit"]) == (0.2, 5.0)
    assert (postgres["cpu_pct"], postgres["cpu_us_per_move"]) == (5.0, 500.0)
    assert postgres["wal_bytes_per_move"] == 400.0
    redis = figures["redis"]
    # The probe's own INFO commands are not the servers'.
    assert (redis["commands_per_s"], redis["by_command"]) == (2.7, {"set": 27})


def test_a_process_tree_counts_its_children() -> None:
    spin = (
        "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3: pass\ninput()"
    )
    child = subprocess.Popen([sys.executable, "-c", spin], stdin=subprocess.PIPE)
    try:
        for _ in range(200):
            if cpu_seconds(child.pid) >= 0.3:
                break
            time.sleep(0.05)
        assert tree_cpu_seconds(child.pid) >= 0.29
        assert tree_cpu_seconds(os.getpid()) - cpu_seconds(os.getpid()) >= 0.29
    finally:
        child.kill()
        child.communicate()


def has_postgres() -> bool:
    try:
        postgres_bindir()
    except SystemExit:
        return False
    return shutil.which("redis-server") is not None


@pytest.mark.skipif(not has_postgres(), reason="no PostgreSQL or redis-server")
def test_two_processes_on_a_throwaway_postgres_report_what_the_stores_did() -> None:
    done = subprocess.run(
        [sys.executable, "bench/load.py", "--grace", "3", "--matches", "4", "--seconds", "2",
         "--warmup", "0.5", "--think", "100", "--no-echo", "--nodes", "2", "--postgres"],
        cwd=ROOT, capture_output=True, text=True, timeout=240, check=True,
    )  # fmt: skip
    [result] = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert result["ok"] is True and len(result["server"]["cpu_pct_each"]) == 2
    side = result["side"]
    assert side["commit"]["count"] == side["actions"] > 0
    postgres, redis = side["postgres"], side["redis"]
    # Every durable move is a row of the action log, committed in batches of one or more. The
    # database is counted a moment before the server's metrics at each edge of a 2 s window,
    # so a move or two either side: PERF.md's longer runs counted 0.98-1.05.
    assert 0.9 <= postgres["rows_inserted_per_move"] <= 1.2
    # PostgreSQL counts every transaction, the two processes' periodic reads too (due
    # wake-ups, the mail outbox): 0.1-0.55 of them per move in a window of about 80 moves.
    # Two commits of the server's own per move would make more than 2.
    assert 0 < postgres["commits_per_move"] <= 2.0 and postgres["wal_bytes_per_move"] > 0
    assert postgres["cpu_us_per_move"] > 0 and redis["cpu_us_per_move"] >= 0
    assert "PostgreSQL CPU" in done.stderr and "Redis CPU" in done.stderr
