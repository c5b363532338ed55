"""``RAMPART_LOG_FORMAT=json``: one JSON object a line, with the request id on a request's lines
and the match id on a match's."""

from __future__ import annotations

import asyncio
import json
import logging
import sys

from app.ops.logs import ContextFilter, JsonFormatter, match_id_var
from tests.app.conftest import ServerFactory
from tests.app.support import Api, Client


def json_lines(text: str) -> list[dict[str, object]]:
    lines = [line for line in text.splitlines() if line.strip()]
    return [json.loads(line) for line in lines]  # every line parses, or the test fails


async def test_json_log_lines_carry_request_and_match_ids(make_server: ServerFactory) -> None:
    server = make_server(RAMPART_LOG_FORMAT="json", RAMPART_LOG_LEVEL="info")
    api = Api(server)
    reply = await api.client.get("/api/games", headers={"x-request-id": "trace-42"})
    assert reply.headers["x-request-id"] == "trace-42"
    generated = (await api.client.get("/api/health")).headers["x-request-id"]
    assert len(generated) == 32
    token = await api.guest("ann")
    match_id = await api.table("tally", [token], seats=2, options={"target": 30}, bots="heuristic")
    await api.close()
    ann = await Client(server, match_id, token).connect()
    seq = await ann.act({"type": "resign"})
    await ann.wait_for("ack", client_seq=seq)
    lines: list[dict[str, object]] = []
    for _ in range(100):  # the end is logged by the match's session, just after the ack
        lines = json_lines(server.log_text())
        if any(line.get("match_id") == match_id for line in lines):
            break
        await asyncio.sleep(0.1)
    about_request = [line for line in lines if line.get("request_id") == "trace-42"]
    assert about_request and "GET /api/games 200" in str(about_request[0]["message"])
    assert any(line.get("request_id") == generated for line in lines)
    about_match = [line for line in lines if line.get("match_id") == match_id]
    assert about_match, lines[-5:]
    assert {"ts", "level", "logger", "message"} <= set(about_match[0])


def test_formatter_takes_explicit_fields_over_context_and_keeps_tracebacks() -> None:
    token = match_id_var.set(7)
    try:
        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "seat %s failed", (2,), None)
        record.seat = 2
        try:
            raise ValueError("boom")
        except ValueError:
            record.exc_info = sys.exc_info()
        ContextFilter().filter(record)
        line = json.loads(JsonFormatter().format(record))
    finally:
        match_id_var.reset(token)
    assert line["match_id"] == 7 and line["seat"] == 2 and "request_id" not in line
    assert line["message"] == "seat 2 failed" and "ValueError: boom" in line["exc"]
