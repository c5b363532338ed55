"""``GET /metrics``: the Prometheus text format, with the figures of what really happened."""

from __future__ import annotations

from typing import Any

from prometheus_client.parser import text_string_to_metric_families

from app.ops.metrics import METRICS, RequestMetricsMiddleware
from tests.app.conftest import ServerFactory
from tests.app.support import Api, Client


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def value(found: dict[Any, float], name: str, **labels: str) -> float:
    return found.get((name, tuple(sorted(labels.items()))), 0.0)


async def test_metrics_count_matches_sockets_actions_errors_and_requests(
    make_server: ServerFactory,
) -> None:
    server = make_server()
    api = Api(server)
    tokens = [await api.guest("ann"), await api.guest("bob")]
    match_id = await api.table("tally", tokens, options={"target": 40})
    players = [await Client(server, match_id, t).connect() for t in tokens]
    moves = 0
    for _ in range(3):
        for seat, player in enumerate(players):
            await player.wait_until(lambda c, s=seat: c.view["turn"] == s and c.legal)
            seq = await player.act({"type": "move", "cell": (player.version + seat) % 20})
            await player.wait_for("ack", client_seq=seq)
            moves += 1
    await players[1].act({"type": "move", "cell": 1})  # not bob's turn: refused with a code
    refusal = await players[1].wait_for("error")
    assert (await api.get(f"/api/matches/{match_id}")).status_code == 200

    reply = await api.client.get("/metrics")
    assert reply.status_code == 200
    assert reply.headers["content-type"].startswith("text/plain")
    found = samples(reply.text)
    assert value(found, "rampart_matches_live") >= 1
    assert value(found, "rampart_sockets_open") == 2
    assert value(found, "rampart_actions_total", game="tally") == moves
    assert value(found, "rampart_action_commit_seconds_count") == moves
    assert value(found, "rampart_broadcast_seconds_count") == moves
    assert value(found, "rampart_errors_total", code=refusal["code"]) == 1
    assert value(found, "rampart_races_total") == 0
    get_match = {"method": "GET", "route": "/api/matches/{match_id}"}
    assert value(found, "rampart_http_request_duration_seconds_count", **get_match) == 1
    ok = {"route": "/api/matches/{match_id}", "status": "200"}
    assert value(found, "rampart_http_responses_total", **ok) == 1
    assert value(found, "process_resident_memory_bytes") > 10_000_000
    assert value(found, "process_cpu_seconds_total") > 0

    # REST refusals count by code too; gauges follow what closes.
    assert (await api.get("/api/matches/999999")).status_code == 404
    for player in players:
        await player.close()
    found = samples((await api.client.get("/metrics")).text)
    assert value(found, "rampart_errors_total", code="match/not_found") == 1
    assert value(found, "rampart_sockets_open") == 0
    await api.close()


class Route:
    path = "/api/things/{thing_id}"


async def test_a_request_is_counted_before_its_response_has_all_left() -> None:
    """The scrape right after a response must see it: the count is taken before the last
    body message goes out, not once the app's task ends."""
    labels = {"method": "GET", "route": Route.path}
    count_name = "rampart_http_request_duration_seconds_count"
    before = METRICS.registry.get_sample_value(count_name, labels) or 0.0
    counted_when_sent: list[float] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b""}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.body":
            counted = METRICS.registry.get_sample_value(count_name, labels) or 0.0
            counted_when_sent.append(counted - before)

    scope = {"type": "http", "method": "GET", "route": Route()}
    await RequestMetricsMiddleware(app)(scope, receive, send)
    assert counted_when_sent == [1.0]
    ok = {"route": Route.path, "status": "200"}
    assert METRICS.registry.get_sample_value("rampart_http_responses_total", ok) == 1.0
