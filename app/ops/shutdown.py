"""Graceful shutdown: on SIGTERM every match is handed over before uvicorn closes connections.

uvicorn's own shutdown stops listening, then closes every connection (a websocket with 1012),
then runs the app's lifespan shutdown. Matches need their turn before that: ``DrainingServer``
runs the app's ``hand_over`` first (``Hub.hand_over``): no new match socket or match is
taken, every accepted action is written, the matches are given up (in a cluster another
process may claim each at once and rebuild it from the action log), and their sockets are
closed with 1012 (service restart) so the clients reconnect at once — to another process
behind the balancer, or to this one once it is back.

``Server.shutdown`` is a public method of uvicorn's ``Server`` (pinned in pyproject.toml;
``tests/app/realtime/test_framework_internals.py`` checks it).
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Awaitable, Callable

import uvicorn

log = logging.getLogger(__name__)

# The longest a hand-over may take: past it uvicorn's shutdown goes on regardless (an action
# still waiting for a database that is down stays unacknowledged, never lost once acked).
HAND_OVER_TIMEOUT_S = 15.0


class DrainingServer(uvicorn.Server):
    """uvicorn's server, calling ``hand_over()`` before it closes any connection."""

    def __init__(
        self, config: uvicorn.Config, hand_over: Callable[[], Awaitable[None] | None]
    ) -> None:
        super().__init__(config)
        self.hand_over = hand_over

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        try:
            pending = self.hand_over()
            if pending is not None:
                await asyncio.wait_for(pending, HAND_OVER_TIMEOUT_S)
        except Exception:
            log.exception("handing the matches over failed; shutting down regardless")
        await super().shutdown(sockets)
