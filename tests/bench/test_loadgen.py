"""The load generator's pure parts: the share of matches per worker, and the merge of worker
reports into one result (``bench/loadgen``)."""

from __future__ import annotations

from typing import Any

from bench.loadgen.client import Plan
from bench.loadgen.report import merge, summary


def plan(procs: int, worker: int, matches: int = 10) -> Plan:
    return Plan("http://x", False, "ambush", matches, 500, 1.0, 5.0, 1.0, procs, worker)


def test_every_match_index_is_played_once_whatever_the_number_of_workers() -> None:
    for procs in (1, 2, 3, 4, 11):
        shares = [list(plan(procs, k).indexes()) for k in range(procs)]
        assert sorted(i for share in shares for i in share) == list(range(10))
    assert list(plan(3, 1).indexes()) == [1, 4, 7]


def report(worker: int, latencies: list[float], **extra: Any) -> dict[str, Any]:
    errors = dict(connect=0, disconnect=0, error=0, rejected=0, slow_over_5s=0, unacked_at_end=0)
    return {
        "worker": worker,
        "setup_s": 1.0 + worker,
        "clients": 20,
        "matches_active": 5,
        "latencies": latencies,
        "acked": len(latencies),
        "sent": len(latencies) + 1,
        "errors": errors,
        "race_decisions": 2,
        "race_wins": 1,
        "refusals": {"ambush/empty_cell": 1},
        "finished": 1,
        "cpu_s": 1.0,
        "window_s": 5.0,
        "rss_mb": 30.0,
        "loop_lag_p99_ms": 2.0 * (worker + 1),
        **extra,
    }


SERVER = {
    "window_s": 5.0,
    "cpu_s": 2.5,
    "rss_mb_end": 100.0,
    "rss_mb_max_window": 101.0,
    "rss_mb_peak": 102.0,
    "waited_s": 0.5,
    "machine_busy": (150, 200),
}


def merged(reports: list[dict[str, Any]]) -> dict[str, Any]:
    return merge(reports, SERVER, game="ambush", echo=False, matches=10, think_ms=500, warmup_s=1.0)


def test_two_worker_reports_merge_into_one_result() -> None:
    slow = report(1, [10.0, 20.0, 30.0, 40.0, 50.0])
    fast = report(0, [1.0, 2.0, 3.0, 4.0, 5.0], errors={**slow["errors"], "rejected": 2})
    result = merged([slow, fast])
    # Percentiles over every sample of both workers, not an average of the workers'.
    assert result["latency_ms"] == {"p50": 5.0, "p95": 50.0, "p99": 50.0, "max": 50.0,
                                    "mean": 16.5}  # fmt: skip
    assert (result["load_procs"], result["clients"], result["matches_active"]) == (2, 40, 10)
    assert (result["moves_sent"], result["moves_per_s"]) == (12, 2.0)
    assert result["errors"]["rejected"] == 2
    assert result["refusals"] == {"ambush/empty_cell": 2}
    assert (result["race_decisions_per_s"], result["race_wins_per_s"]) == (0.8, 0.4)
    assert result["matches_finished"] == 2
    assert result["setup_s"] == 2.0  # the slowest worker's
    assert result["loadgen"]["cpu_pct"] == 40.0  # summed: 20 % each
    assert result["loadgen"]["loop_lag_p99_ms"] == 4.0  # the worst worker's
    assert [w["loop_lag_p99_ms"] for w in result["loadgen"]["workers"]] == [2.0, 4.0]
    assert result["server"]["cpu_pct"] == 50.0
    assert result["server"]["cpu_us_per_move"] == 250000.0
    assert result["server"]["runqueue_wait_pct"] == 10.0
    assert result["machine_cpu_busy_pct"] == 75.0
    assert result["ok"] is True
    assert "over 2 procs" in summary(result)


def test_a_missing_match_or_a_disconnect_is_not_ok() -> None:
    short = report(1, [1.0], matches_active=4)
    assert merged([report(0, [1.0]), short])["ok"] is False
    dropped = report(1, [1.0])
    dropped["errors"]["disconnect"] = 1
    assert merged([report(0, [1.0]), dropped])["ok"] is False


def test_one_process_reports_like_one_worker() -> None:
    result = merge([report(0, [])], SERVER, game="tally", echo=True, matches=5, think_ms=500,
                   warmup_s=1.0)  # fmt: skip
    assert result["peer"] == "rampart-echo"
    assert "race_decisions_per_s" not in result
    assert result["latency_ms"]["p99"] == 0.0
    assert result["ok"] is False  # no move acknowledged
    assert result["load_procs"] == 1 and len(result["loadgen"]["workers"]) == 1


def test_grabs_and_turn_actions_are_also_reported_apart() -> None:
    # Worker 0: three turn actions and two grabs (one as fast as a turn action); worker 1: one
    # grab. The overall figures keep every sample.
    first = report(0, [2.0, 4.0, 4.0, 60.0, 80.0], grab_latencies=[4.0, 80.0])
    second = report(1, [70.0], grab_latencies=[70.0])
    result = merged([first, second])
    assert result["latency_ms"]["max"] == 80.0
    assert result["latency_ms_turn_actions"]["max"] == 60.0
    assert result["latency_ms_turn_actions"]["mean"] == 22.0  # 2, 4, 60
    assert result["latency_ms_grabs"]["p50"] == 70.0  # 4, 70, 80
    assert result["latency_ms_grabs"]["mean"] == 51.33
    assert "grabs p99 80.0 ms" in summary(result)


def test_with_several_processes_a_match_lives_on_one_and_spread_seats_go_round() -> None:
    bases = ("http://a", "http://b")
    owned = Plan("http://a", False, "tally", 4, 500, 1.0, 5.0, 1.0, bases=bases)
    assert [owned.base_for(i) for i in range(4)] == ["http://a", "http://b"] * 2
    assert {owned.socket_base(3, seat) for seat in range(4)} == {"ws://b"}
    spread = Plan("http://a", False, "tally", 4, 500, 1.0, 5.0, 1.0, bases=bases, spread=True)
    assert [spread.socket_base(3, seat) for seat in range(4)] == ["ws://b", "ws://a"] * 2


def test_lobby_traffic_is_reported_apart_and_a_failed_table_is_not_ok() -> None:
    assert "rest" not in merged([report(0, [1.0])])
    rest = {
        "tables_opened": 4,
        "tables_failed": 0,
        "first_failure": None,
        "latencies": [float(v) for v in range(1, 37)],
    }
    result = merged([report(0, [1.0], rest=rest), report(1, [2.0])])
    assert result["rest"] == {
        "tables_opened": 4,
        "tables_opened_per_s": 0.8,
        "tables_failed": 0,
        "first_failure": None,
        "requests": 36,
        "latency_ms": {"p50": 18.0, "p95": 35.0, "p99": 36.0, "max": 36.0},
    }
    assert result["ok"] is True
    assert "tables/s opened over REST" in summary(result)
    failed = {**rest, "tables_failed": 1, "first_failure": "RuntimeError('/api/lobbies: 503')"}
    result = merged([report(0, [1.0], rest=failed)])
    assert result["ok"] is False and result["rest"]["first_failure"].startswith("RuntimeError")
