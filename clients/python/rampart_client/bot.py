"""Play a whole match with a function that picks an action from the seat's legal actions."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from typing import Any

from rampart_client.match import MatchClient
from rampart_client.views import LegalAction, View

Choose = Callable[[View, list[LegalAction]], LegalAction | Awaitable[LegalAction | None] | None]


async def play(
    base_url: str,
    match_id: int,
    token: str,
    choose: Choose,
    *,
    seat: int | None = None,
    think_s: float = 0.0,
    timeout_s: float = 600.0,
    on_message: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Play ``match_id`` to its end and return its outcome.

    Whenever the seat has legal actions and nothing of its own is unanswered, ``choose(view,
    legal)`` picks one (return None to let the moment pass, for example to wait in a race);
    it is sent after ``think_s`` seconds. Reconnects and resends are the client's.
    ``on_message`` sees every message the server sends, as received."""
    async with MatchClient(base_url, match_id, token, seat=seat, on_message=on_message) as client:
        async with asyncio.timeout(timeout_s):
            await _play(client, choose, think_s)
        assert client.outcome is not None
        return client.outcome


async def _play(client: MatchClient, choose: Choose, think_s: float) -> None:
    protocol = client.protocol
    if protocol.outcome is not None:
        return
    async for event in client.events():
        if event.kind == "ended":
            return
        if event.kind not in {"welcome", "state", "ack", "refused", "grab_result"}:
            continue
        if protocol.pending or not protocol.my_turn or protocol.view is None:
            continue
        picked = choose(protocol.view, protocol.legal)
        if inspect.isawaitable(picked):
            picked = await picked
        if picked is None:
            continue
        if think_s:
            await asyncio.sleep(think_s)
        client.act(picked)
