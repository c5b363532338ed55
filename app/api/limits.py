"""The size of a REST request body is bounded before anything reads it: a larger one is a 413
``request/too_large``, whether it announces its length or streams in chunks."""

from __future__ import annotations

import json

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

# The largest body the API takes: table options are at most 16 KiB of JSON (``params``), and
# nothing else comes near it.
MAX_BODY_BYTES = 64 * 1024


class BodyTooLarge(HTTPException):
    """Raised while a chunked body is read past the limit (``app.api.errors`` answers it)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the request body is larger than {limit} bytes")


class BodyLimit:
    """ASGI middleware: refuses an HTTP request whose body exceeds ``max_bytes``."""

    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await refuse(send, self.max_bytes)
            return
        seen = 0

        async def bounded() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise BodyTooLarge(self.max_bytes)
            return message

        await self.app(scope, bounded, send)


async def refuse(send: Send, limit: int) -> None:
    body = {
        "error": {
            "code": "request/too_large",
            "message": f"the request body is larger than {limit} bytes",
        }
    }
    payload = json.dumps(body).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(payload))]
    await send({"type": "http.response.start", "status": 413, "headers": headers})
    await send({"type": "http.response.body", "body": payload})
