"""The soak at CI size (``bench/soak.py``): tables played to their end and replaced for ~40 s
against a real server, each client seat pausing 5 s now and then (longer than the server's
dead-link time), with a round of floods from another address every 10 s (silent sockets,
stalled request heads, accounts, tables, reads); its open file handles stay flat and nothing
goes wrong on either side (a failed table, a dropped socket, a refusal, a match that does not
end, a traceback, a flood's socket or connection left open)."""

from __future__ import annotations

from bench.soak import SOAK_FLOODS, SoakPlan, soak, summary


async def test_a_short_soak_keeps_open_files_flat_with_no_errors() -> None:
    plan = SoakPlan(
        minutes=0.6, matches=6, target=6, sample_s=2.0, match_timeout_s=30.0, floods=SOAK_FLOODS
    )
    result = await soak(plan)
    report = summary(result)
    assert result["server_alive"], report
    assert result["matches_finished"] >= plan.matches, report
    assert result["fds_verdict"] == "flat", f"{report}\n{result['samples']}"
    assert result["error_count"] == 0, f"{report}\n{result['first_table_failures']}"
    assert result["floods"]["rounds"] >= 2, result["floods"]
    assert result["floods"]["stalled_heads_closed"] >= 2 * SOAK_FLOODS.slowloris, result["floods"]
