"""``RampartApp``: the FastAPI application, with match sockets taken straight to the gateway.

A websocket lives inside every ASGI layer it passed through until it closes: each middleware
(request ids, metrics, allowed methods, body limit, the not-found page, Starlette's error and
exception layers, FastAPI's exit stack), the router, the route and the dependency solver keeps
a suspended coroutine frame, with its closures, for the socket's whole life. None of those
layers does anything for a websocket (each passes a non-HTTP scope on unchanged), yet at a few
thousand match sockets their frames are a large share of the objects the cyclic collector
tracks and of the memory a connected seat costs (``bench/PERF.md``, "Memory per connected
seat").

So a ``/ws/matches/{id}`` websocket whose id is a plain number goes from ``__call__`` straight
to the gateway (``serve_admitted``), once the services are running. Every other request, and
a match socket with any other path, takes the whole stack as before; the route stays declared
for the API contract and for an application whose services are not provided.
"""

from __future__ import annotations

import re

from fastapi import FastAPI, WebSocket
from starlette.types import Receive, Scope, Send

from app.realtime import gateway
from app.realtime.services import provided

# An id the route's ``int`` would accept too, short enough to be a row id (longer ones take
# the routed path and its validation).
MATCH_SOCKET = re.compile(r"/ws/matches/([0-9]{1,18})")


def match_socket_id(scope: Scope) -> int | None:
    """The match id of a websocket scope for ``/ws/matches/{id}``, or None."""
    path: str = scope["path"]
    root_path: str = scope.get("root_path", "")
    if root_path and path.startswith(root_path):
        path = path[len(root_path) :]
    found = MATCH_SOCKET.fullmatch(path)
    return int(found.group(1)) if found is not None else None


class RampartApp(FastAPI):
    """FastAPI, plus the short way in for match sockets described above."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and (match_id := match_socket_id(scope)) is not None:
            services = provided(self)
            if services is not None:
                scope["app"] = self
                await gateway.serve_admitted(WebSocket(scope, receive, send), match_id, services)
                return
        await super().__call__(scope, receive, send)
