"""Server-to-client message builders, and the server's own seat as a listener."""

from __future__ import annotations

from typing import Any

from app.jsonenc import encode_text
from app.ops.metrics import METRICS
from app.protocol.common import Error
from app.protocol.match import Ack, GrabResult
from app.sessions.listener import Unmeasured


class ServerSeat(Unmeasured):
    """The listener of an action the server submits for a seat (a withdrawal's or a ban's
    resign): its replies go nowhere."""

    def __init__(self, account_id: int | None, seat: int) -> None:
        self.account_id = account_id
        self.seat = seat

    def send_text(self, text: str) -> None:
        return None

    def close(self, code: int = 1000) -> None:
        return None


# Compact JSON text (orjson, because the server encodes every view for every seat): the one
# encoder of ``app.jsonenc`` itself, not a wrapper, as it runs several times per move.
dumps = encode_text


def error(
    code: str, message: str, client_seq: int | None = None, retry_after_ms: int | None = None
) -> Error:
    """An ``error``: the ``client_seq`` of the action it refuses, if any; ``retry_after_ms``
    set means the action was not played and may be sent again after that many ms, as a new
    action (a new ``client_seq``: the old one may be older than one sent since), and adds
    ``retry: true``."""
    METRICS.error(code)
    reply: Error = {"type": "error", "code": code, "message": message}
    if client_seq is not None:
        reply["client_seq"] = client_seq
    if retry_after_ms is not None:
        reply["retry"] = True
        reply["retry_after_ms"] = retry_after_ms
    return reply


def ack(client_seq: int, version: int) -> Ack:
    return {"type": "ack", "client_seq": client_seq, "version": version}


def grab_result(
    client_seq: int, cell: Any, won: bool, decided_at: int, code: str | None = None
) -> GrabResult:
    reply: GrabResult = {
        "type": "grab_result",
        "client_seq": client_seq,
        "cell": cell,
        "won": won,
        "decided_at": decided_at,
    }
    if code is not None:
        reply["code"] = code
    return reply
