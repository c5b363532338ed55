"""Prometheus metrics of one server process (``GET /metrics``), with prometheus-client.

What costs the move path nothing is read when Prometheus scrapes: live matches, open sockets
(``LiveCollector`` asks the hub and the pinger), the process's CPU and memory
(prometheus-client's process collector). What must be counted as it happens on the move path
(actions, commit and broadcast times, races) is counted in plain Python numbers
(``PlainCounter``, ``PlainHistogram``: an add, no lock, where prometheus-client takes a mutex
per increment) and turned into metric families when Prometheus scrapes (``MoveCollector``).
The event loop's thread is their only writer, and the scrape runs on it too. REST latencies
and error counts stay prometheus-client's own. Each process serves its own figures; in a
cluster Prometheus scrapes every process and labels them by ``instance``.
"""

from __future__ import annotations

import time
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector

# Seconds: from an accepted action to its durable row, and for one change's broadcast.
FAST_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0)
REST_BUCKETS = (0.005, 0.025, 0.1, 0.5, 2.5, 10.0)


class PlainCounter:
    """A counter without labels in a plain integer: ``inc`` is an add."""

    __slots__ = ("value",)

    def __init__(self) -> None:
        self.value = 0

    def inc(self, amount: int = 1) -> None:
        self.value += amount


class PlainHistogram:
    """A histogram without labels in plain numbers: ``observe`` finds the value's bucket (the
    first upper bound at or above it, as Prometheus's ``le``) and adds to it and to the sum."""

    __slots__ = ("bounds", "counts", "total")

    def __init__(self, buckets: Sequence[float]) -> None:
        self.bounds = tuple(buckets)
        self.counts = [0] * (len(self.bounds) + 1)  # the last: above every bound (+Inf)
        self.total = 0.0

    def observe(self, value: float) -> None:
        self.counts[bisect_left(self.bounds, value)] += 1
        self.total += value

    def family(self, name: str, documentation: str) -> HistogramMetricFamily:
        buckets = []
        cumulative = 0
        for bound, count in zip((*map(repr, self.bounds), "+Inf"), self.counts, strict=True):
            cumulative += count
            buckets.append((bound, cumulative))
        return HistogramMetricFamily(name, documentation, buckets=buckets, sum_value=self.total)


class Metrics:
    """The process's registry and the metrics the server updates as things happen."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        ProcessCollector(registry=self.registry)
        # The move path's figures (exported by ``MoveCollector``).
        self.actions_by_game: dict[str, int] = {}
        # From an accepted action to its durable row in the action log.
        self.commit_seconds = PlainHistogram(FAST_BUCKETS)
        # Building and queueing one change's messages for every connection of its match.
        self.broadcast_seconds = PlainHistogram(FAST_BUCKETS)
        self.races = PlainCounter()
        # Matches put to sleep, and woken by their due deadline (``app/sessions/sleep.py``).
        self.slept = PlainCounter()
        self.woken = PlainCounter()
        self.registry.register(MoveCollector(self))
        self.errors = Counter(
            "rampart_errors",
            "Errors answered to clients (websocket error messages and REST errors), by code.",
            ["code"],
            registry=self.registry,
        )
        # Latency by route (not by status too: a histogram per route and status multiplied
        # the series, and a scrape's cost on the event loop with them); statuses are counted.
        self.requests = Histogram(
            "rampart_http_request_duration_seconds",
            "REST request latency, by method and route template.",
            ["method", "route"],
            buckets=REST_BUCKETS,
            registry=self.registry,
        )
        self.responses = Counter(
            "rampart_http_responses",
            "REST responses, by route template and status.",
            ["route", "status"],
            registry=self.registry,
        )
        self._live: LiveCollector | None = None

    def action_logged(self, game: str, commit_seconds: float) -> None:
        """One more durable action of ``game``, its row written ``commit_seconds`` after the
        action was accepted."""
        counts = self.actions_by_game
        counts[game] = counts.get(game, 0) + 1
        self.commit_seconds.observe(commit_seconds)

    def error(self, code: str) -> None:
        self.errors.labels(code).inc()

    def watch(self, matches_live: Callable[[], int], sockets_open: Callable[[], int]) -> None:
        """Read these two at every scrape (the app's lifespan sets them; a new app replaces
        the old reader)."""
        if self._live is not None:
            self.registry.unregister(self._live)
        self._live = LiveCollector(matches_live, sockets_open)
        self.registry.register(self._live)

    def unwatch(self) -> None:
        if self._live is not None:
            self.registry.unregister(self._live)
            self._live = None

    def exposition(self) -> tuple[bytes, str]:
        """The text format Prometheus scrapes, and its content type."""
        return generate_latest(self.registry), CONTENT_TYPE_LATEST


class MoveCollector(Collector):
    """The move path's plain counters and histograms, as metric families at scrape time."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterator[Metric]:
        metrics = self.metrics
        actions = CounterMetricFamily(
            "rampart_actions", "Actions accepted and made durable, by game.", labels=["game"]
        )
        for game, count in sorted(metrics.actions_by_game.items()):
            actions.add_metric([game], count)
        yield actions
        yield metrics.commit_seconds.family(
            "rampart_action_commit_seconds",
            "From an accepted action to its durable row in the action log.",
        )
        yield metrics.broadcast_seconds.family(
            "rampart_broadcast_seconds",
            "Building and queueing one change's messages for every connection of its match.",
        )
        yield CounterMetricFamily(
            "rampart_races", "Ambush! grab races started.", value=metrics.races.value
        )
        yield CounterMetricFamily(
            "rampart_matches_slept", "Idle matches put to sleep.", value=metrics.slept.value
        )
        yield CounterMetricFamily(
            "rampart_matches_woken",
            "Sleeping matches this process woke because a deadline of theirs was due.",
            value=metrics.woken.value,
        )


class LiveCollector(Collector):
    """Gauges read at scrape time: no cost between scrapes."""

    def __init__(self, matches_live: Callable[[], int], sockets_open: Callable[[], int]) -> None:
        self.matches_live = matches_live
        self.sockets_open = sockets_open

    def collect(self) -> Iterator[GaugeMetricFamily]:
        yield GaugeMetricFamily(
            "rampart_matches_live", "Matches being played in this process.", self.matches_live()
        )
        yield GaugeMetricFamily(
            "rampart_sockets_open", "Match websockets open on this process.", self.sockets_open()
        )


METRICS = Metrics()


Scope = dict[str, Any]


class RequestMetricsMiddleware:
    """Times every REST request by its route template (``/api/matches/{match_id}``, never the
    raw path, so ids do not multiply the series); unknown paths count as ``unmatched``.

    A request is counted as its last body message goes out, before the client can have the
    whole response: counted after the app returned, a client's next request (a scrape) could
    be served first, while the finished request's task still waited to end."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        status = 500
        counted = False
        started = time.perf_counter()

        def count() -> None:
            nonlocal counted
            counted = True
            route = scope.get("route")
            template = getattr(route, "path", None) or "unmatched"
            METRICS.requests.labels(scope["method"], template).observe(
                time.perf_counter() - started
            )
            METRICS.responses.labels(template, str(status)).inc()

        async def send_and_note(message: dict[str, Any]) -> None:
            nonlocal status
            kind = message["type"]
            if kind == "http.response.start":
                status = message["status"]
            elif kind == "http.response.body" and not message.get("more_body") and not counted:
                count()
            await send(message)

        try:
            await self.app(scope, receive, send_and_note)
        finally:
            if not counted:  # no response body went out (the app failed first)
                count()
