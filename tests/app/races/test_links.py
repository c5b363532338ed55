"""Link measurement (rtt_min, jitter) on scripted ping/pong times."""

from __future__ import annotations

from app.races.links import LinkMeter, LinkStats, SendLog


def meter_with(rtts: list[float]) -> LinkMeter:
    meter = LinkMeter()
    clock = 0.0
    for nonce, rtt in enumerate(rtts, start=1):
        meter.sent(nonce, clock)
        assert meter.pong(nonce, clock + rtt) == rtt
        clock += 1000
    return meter


def test_rtt_min_is_the_minimum_of_the_last_16() -> None:
    meter = meter_with([5.0] + [40.0] * 16)
    assert meter.rtt_min == 40.0  # the 5 ms sample fell out of the window
    meter = meter_with([40.0] * 10 + [30.0] + [40.0] * 5)
    assert meter.rtt_min == 30.0


def test_jitter_is_p90_minus_min_of_the_last_32() -> None:
    meter = meter_with([20.0 + k for k in range(10)])  # 20..29
    assert meter.jitter == 28.0 - 20.0  # nearest rank: the 9th of 10
    assert meter_with([50.0]).jitter == 0.0


def test_rtt_cap_follows_the_design_formula() -> None:
    assert LinkStats(40.0, 0.0, 5).rtt_cap == 60.0  # at least 20 ms of tolerance
    assert LinkStats(40.0, 15.0, 5).rtt_cap == 85.0  # 3 x jitter
    assert LinkStats(250.0, 30.0, 5).rtt_cap == 300.0  # never above 300
    assert LinkStats(None, 0.0, 0).rtt_cap == 300.0  # unmeasured: the widest budget


def test_unknown_repeated_or_forged_pongs_are_ignored() -> None:
    meter = LinkMeter()
    meter.sent(1, 100.0)
    assert meter.pong(2, 150.0) is None
    assert meter.pong("1", 150.0) is None
    assert meter.pong(True, 150.0) is None
    assert meter.pong(1, 150.0) == 50.0
    assert meter.pong(1, 160.0) is None  # a nonce counts once
    assert meter.stats().samples == 1


def test_a_late_pong_can_only_make_the_link_look_slower() -> None:
    meter = meter_with([30.0] * 8)
    meter.sent(99, 10_000.0)
    meter.pong(99, 10_400.0)  # answered late on purpose
    assert meter.rtt_min == 30.0
    assert meter.stats().rtt_cap >= 50.0


def test_send_log_keeps_the_first_send_of_each_version() -> None:
    log = SendLog(limit=3)
    log.sent(1, 10.0)
    log.sent(1, 20.0)
    log.sent(2, 30.0)
    log.sent(3, 40.0)
    log.sent(4, 50.0)
    assert log.at(1) is None  # forgotten
    assert log.at(2) == 30.0 and log.latest == 4 and log.at(None) is None
