"""The shared pinger: each connection on its own cadence, spread over the ticks."""

from __future__ import annotations

from collections import Counter

from app.realtime.pinger import PHASES, TICK_MS, Pinger


class Link:
    def __init__(self, period_ms: float | None) -> None:
        self.period_ms = period_ms
        self.pings = 0

    def ping_period_ms(self) -> float | None:
        return self.period_ms

    def ping(self) -> None:
        self.pings += 1


def run_ticks(pinger: Pinger, ticks: int) -> Counter[int]:
    """Tick by hand; return how many connections were pinged at each tick."""
    pinged: Counter[int] = Counter()
    links = [link for phase in pinger._phases for link in phase]
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
    ten_seconds = 10_000 // TICK_MS
    run_ticks(pinger, ten_seconds)
    assert {link.pings for link in race} == {40}
    assert {link.pings for link in idle} == {10}
    assert {link.pings for link in keepalive} == {2}
    assert {link.pings for link in silent} == {0}


async def test_pings_are_spread_over_the_ticks_not_sent_in_bursts() -> None:
    pinger = Pinger()
    links = [Link(250) for _ in range(PHASES * 8)]
    for link in links:
        pinger.add(link)
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
