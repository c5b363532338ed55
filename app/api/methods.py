"""Which methods a path serves: ``OPTIONS`` on any route's path answers 204 with ``Allow``, and
a method the path does not serve a 405 whose ``Allow`` lists every method of every route of
that path (RFC 9110 sec. 9.3.7 and 15.5.6), not only the first route's as the router's own
405 does."""

from __future__ import annotations

from starlette.routing import BaseRoute, Match, Mount
from starlette.types import ASGIApp, Message, Receive, Scope, Send

OPTIONS = "OPTIONS"
METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")


def allowed_methods(routes: list[BaseRoute], scope: Scope) -> set[str]:
    """The methods some route (mounted apps aside) serves at the request's path."""
    allowed = set()
    for method in METHODS:
        probe = {**scope, "method": method}
        if any(
            not isinstance(route, Mount) and route.matches(probe)[0] is Match.FULL
            for route in routes
        ):
            allowed.add(method)
    return allowed


class AllowedMethods:
    """ASGI middleware: rewrites the router's 405 (every ``OPTIONS`` is one, no route
    declaring it), so it costs nothing to requests a route serves."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        options = scope["method"] == OPTIONS
        swallowing = False

        async def answer(message: Message) -> None:
            nonlocal swallowing
            if message["type"] == "http.response.start" and message["status"] == 405:
                methods = allowed_methods(scope["app"].router.routes, scope)
                if methods:
                    allow = (b"allow", ", ".join(sorted(methods | {OPTIONS})).encode())
                    if options:  # no body: only the status and Allow
                        swallowing = True
                        headers = [allow]
                        message = {"type": message["type"], "status": 204, "headers": headers}
                    else:
                        kept = [(k, v) for k, v in message["headers"] if k.lower() != b"allow"]
                        message = {**message, "headers": [*kept, allow]}
            elif swallowing and message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return
                message = {"type": "http.response.body", "body": b""}
            await send(message)

        await self.app(scope, receive, answer)
