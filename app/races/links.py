"""Link measurement of one connection on the server's own clock: pings, ``rtt_min``, jitter.

Pure bookkeeping: the caller passes every time (server milliseconds), so the numbers replay
and test without a clock. ``rtt_min`` is the minimum of the last 16
round trips, ``jitter`` the 90th percentile minus the minimum of the last 32. A client can
only make itself look slower: answering a ping late raises its round trip, never lowers it.
"""

from __future__ import annotations

import math
from collections import OrderedDict, deque
from dataclasses import dataclass

RTT_WINDOW = 16
JITTER_WINDOW = 32
# How many unanswered pings we remember; older ones are forgotten (their pong is ignored).
OUTSTANDING = 32
# Ping cadence (wall time): every second, every 250 ms while a race is possible or running,
# so the estimate is fresh when it matters.
IDLE_PING_MS = 1000
RACE_PING_MS = 250
# A player's tolerance: rtt_cap = min(300, rtt_min + max(20, 3 * jitter)).
MAX_CAP_MS = 300.0
MIN_TOLERANCE_MS = 20.0
JITTER_FACTOR = 3.0


@dataclass(frozen=True)
class LinkStats:
    """A snapshot of one link: what the arbiter decides from, and logs."""

    rtt_min: float | None
    jitter: float
    samples: int

    @property
    def rtt_cap(self) -> float:
        """The most a grab may claim its round trip took: ``arrival - V <= rtt_cap``.

        An unmeasured link gets the largest cap (300 ms): we cannot tell it is short."""
        if self.rtt_min is None:
            return MAX_CAP_MS
        tolerance = max(MIN_TOLERANCE_MS, JITTER_FACTOR * self.jitter)
        return min(MAX_CAP_MS, self.rtt_min + tolerance)

    def to_json(self) -> dict[str, float | int | None]:
        return {
            "rtt_min": _round(self.rtt_min),
            "jitter": _round(self.jitter),
            "rtt_cap": _round(self.rtt_cap),
            "samples": self.samples,
        }


# A seat the server plays itself has no link: its grabs are timed exactly.
LOCAL = LinkStats(rtt_min=0.0, jitter=0.0, samples=0)


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


class LinkMeter:
    """Round trips of one connection, from ping send times and pong arrival times.

    ``sent`` must be called when the ping actually leaves (the writer, not the queue), so a
    busy outbox does not count as network delay.
    """

    def __init__(self) -> None:
        self._outstanding: OrderedDict[int, float] = OrderedDict()
        self._rtts: deque[float] = deque(maxlen=JITTER_WINDOW)
        # The arbiter reads the stats on every wake-up of a race session; they only change
        # with a new sample.
        self._stats: LinkStats | None = None

    def sent(self, nonce: int, at_ms: float) -> None:
        """A ping with ``nonce`` left at ``at_ms``."""
        self._outstanding[nonce] = at_ms
        while len(self._outstanding) > OUTSTANDING:
            self._outstanding.popitem(last=False)

    def pong(self, nonce: object, at_ms: float) -> float | None:
        """The pong for ``nonce`` arrived at ``at_ms``: returns the round trip, or None for an
        unknown, repeated or forgotten nonce (ignored, so a client cannot forge samples)."""
        if not isinstance(nonce, int) or isinstance(nonce, bool):
            return None
        sent_at = self._outstanding.pop(nonce, None)
        if sent_at is None or at_ms < sent_at:
            return None
        rtt = at_ms - sent_at
        self._rtts.append(rtt)
        self._stats = None
        return rtt

    @property
    def rtt_min(self) -> float | None:
        recent = list(self._rtts)[-RTT_WINDOW:]
        return min(recent) if recent else None

    @property
    def jitter(self) -> float:
        """p90 minus min of the last 32 round trips (nearest rank), 0 with fewer than 2."""
        samples = sorted(self._rtts)
        if len(samples) < 2:
            return 0.0
        p90 = samples[max(0, math.ceil(0.9 * len(samples)) - 1)]
        return p90 - samples[0]

    def stats(self) -> LinkStats:
        if self._stats is None:
            self._stats = LinkStats(
                rtt_min=self.rtt_min, jitter=self.jitter, samples=len(self._rtts)
            )
        return self._stats


class SendLog:
    """When each numbered broadcast (match version) was sent on one connection: ``S_ref``.

    Keeps the last ``limit`` versions; a grab referring to an older one gets no credit.
    """

    def __init__(self, limit: int = 256) -> None:
        self.limit = limit
        self._sent: OrderedDict[int, float] = OrderedDict()

    def sent(self, version: int, at_ms: float) -> None:
        """Broadcast ``version`` left at ``at_ms``; the first send of a version counts (a
        resend after a reconnect does not make the client's reaction look later)."""
        if version in self._sent:
            return
        self._sent[version] = at_ms
        while len(self._sent) > self.limit:
            self._sent.popitem(last=False)

    def at(self, version: int | None) -> float | None:
        """When ``version`` was sent here, or None if never (or long ago)."""
        if version is None:
            return None
        return self._sent.get(version)

    @property
    def latest(self) -> int | None:
        return next(reversed(self._sent)) if self._sent else None
