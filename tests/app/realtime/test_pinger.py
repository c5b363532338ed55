"""The shared pinger: each connection on its own cadence, spread over the ticks."""

from __future__ import annotations

from collections import Counter

from app.realtime.pinger import PHASES, SPREAD_STEPS, TICK_MS, Pinger


class Link:
    def __init__(self, period_ms: float | None) -> None:
        self.period_ms = period_ms
        self.pings = 0
        self.visits = 0

    def ping_period_ms(self) -> float | None:
        self.visits += 1
        return self.period_ms

    def ping(self) -> None:
        self.pings += 1


def run_ticks(pinger: Pinger, ticks: int) -> Counter[int]:
    """Tick by hand; return how many connections were pinged at each tick."""
    pinged: Counter[int] = Counter()
    links = list(pinger._members)
    for tick in range(ticks):
        before = sum(link.pings for link in links)  # type: ignore[attr-defined]
        pinger._on_tick()
        pinged[tick] = sum(link.pings for link in links) - before  # type: ignore[attr-defined]
    pinger.stop()
    return pinged


async def test_each_connection_is_pinged_on_its_own_cadence() -> None:
    pinger = Pinger()
    race = [Link(250) for _ in range(40)]
    idle = [Link(1000) for _ in range(40)]
    keepalive = [Link(5000) for _ in range(40)]
    silent = [Link(None) for _ in range(5)]
    for link in race + idle + keepalive + silent:
        pinger.add(link)
    # First pings are spread over SPREAD_STEPS steps (5 s); count a whole window after that.
    run_ticks(pinger, SPREAD_STEPS * PHASES)
    for link in race + idle + keepalive + silent:
        link.pings = 0
    ten_seconds = 10_000 // TICK_MS
    run_ticks(pinger, ten_seconds)
    assert {link.pings for link in race} == {40}
    assert {link.pings for link in idle} == {10}
    assert {link.pings for link in keepalive} == {2}
    assert {link.pings for link in silent} == {0}


async def test_a_tick_visits_only_the_connections_it_pings() -> None:
    pinger = Pinger()
    keepalive = [Link(30_000) for _ in range(PHASES * 4)]
    for link in keepalive:
        pinger.add(link)
    run_ticks(pinger, 60_000 // TICK_MS)
    # Two keep-alives each in a minute, and no visits in between (one every 250 ms before).
    assert {link.pings for link in keepalive} == {2}
    assert {link.visits for link in keepalive} == {2}


async def test_refresh_brings_a_faster_cadence_forward() -> None:
    pinger = Pinger()
    link = Link(30_000)
    pinger.add(link)
    run_ticks(pinger, SPREAD_STEPS * PHASES)  # the first keep-alive has gone
    assert link.pings == 1
    link.period_ms = 250
    pinger.refresh(link)
    run_ticks(pinger, 1000 // TICK_MS)
    assert link.pings == 5  # without refresh the next ping would be 30 s away


async def test_pings_are_spread_over_the_ticks_not_sent_in_bursts() -> None:
    pinger = Pinger()
    links = [Link(250) for _ in range(PHASES * 8)]
    for link in links:
        pinger.add(link)
    run_ticks(pinger, SPREAD_STEPS * PHASES)
    per_tick = run_ticks(pinger, PHASES * 4)
    assert set(per_tick.values()) == {8}


async def test_a_cadence_change_applies_from_the_next_ping_and_discard_stops_pings() -> None:
    pinger = Pinger()
    fast, gone = Link(1000), Link(250)
    pinger.add(fast)
    pinger.add(gone)
    pinger.discard(gone)
    fast.period_ms = 250
    run_ticks(pinger, 1000 // TICK_MS)
    assert fast.pings == 4
    assert gone.pings == 0
    assert len(pinger) == 1
