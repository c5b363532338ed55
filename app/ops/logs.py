"""Log set-up: plain text, or one JSON object a line (``RAMPART_LOG_FORMAT=json``) carrying the
match id, seat and request id of whatever the line is about.

Those three come from the record itself when the call names them (``extra={"match_id": m}``)
and otherwise from context variables: a REST request's id is set by ``RequestIdMiddleware``
for everything logged while it is served, and a match session's task runs with its match id
set (``in_match_context``).
"""

from __future__ import annotations

import contextvars
import logging
import re
import time
import traceback
import uuid
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import orjson

match_id_var: contextvars.ContextVar[int | None] = contextvars.ContextVar("match_id", default=None)
seat_var: contextvars.ContextVar[int | None] = contextvars.ContextVar("seat", default=None)
request_id_var: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "request_id", default=None
)

CONTEXT_FIELDS = ("match_id", "seat", "request_id")
_CONTEXT_VARS: dict[str, contextvars.ContextVar[Any]] = {
    "match_id": match_id_var,
    "seat": seat_var,
    "request_id": request_id_var,
}
TEXT_FORMAT = "%(levelname)s %(name)s: %(message)s"
log = logging.getLogger("rampart.requests")


class ContextFilter(logging.Filter):
    """Gives every record ``match_id``, ``seat`` and ``request_id`` (None when unknown)."""

    def filter(self, record: logging.LogRecord) -> bool:
        for name in CONTEXT_FIELDS:
            if getattr(record, name, None) is None:
                setattr(record, name, _CONTEXT_VARS[name].get())
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, the context
    fields that are known, and the traceback as text when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in CONTEXT_FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                line[name] = value
        if record.exc_info:
            line["exc"] = "".join(traceback.format_exception(*record.exc_info)).rstrip()
        return orjson.dumps(line, default=str).decode()


def configure_logging(level: str, log_format: str) -> None:
    """Root logging for the server process; uvicorn's loggers propagate to it (the server is
    started with ``log_config=None``)."""
    handler = logging.StreamHandler()
    handler.addFilter(ContextFilter())
    if log_format == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter(TEXT_FORMAT))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())


def announce(message: str) -> None:
    """A line the operator always sees, whatever the level (the address served on): printed as
    it is in text mode, one JSON line in JSON mode."""
    handlers = logging.getLogger().handlers
    if not handlers or not isinstance(handlers[0].formatter, JsonFormatter):
        print(message, flush=True)
        return
    record = logging.LogRecord("app", logging.INFO, __file__, 0, message, None, None)
    handlers[0].handle(record)


def in_match_context(match_id: int) -> contextvars.Context:
    """A copy of the current context with ``match_id`` set, for a match session's task
    (``loop.create_task(coro, context=...)``)."""
    context = contextvars.copy_context()
    context.run(match_id_var.set, match_id)
    return context


_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class RequestIdMiddleware:
    """Gives each HTTP request an id (the client's ``X-Request-ID`` when it is a plain token,
    else a new one), logs with it, returns it in the ``X-Request-ID`` response header, and at
    level info logs one line per request (method, path, status, time)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = next((v for k, v in scope["headers"] if k == b"x-request-id"), b"").decode(
            "latin-1"
        )
        request_id = given if _REQUEST_ID.fullmatch(given) else uuid.uuid4().hex
        token = request_id_var.set(request_id)
        status = 0

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = list(message.get("headers", []))
                headers.append((b"x-request-id", request_id.encode()))
                message["headers"] = headers
            await send(message)

        started = time.perf_counter()
        try:
            await self.app(scope, receive, send_with_id)
        finally:
            if log.isEnabledFor(logging.INFO):
                spent_ms = (time.perf_counter() - started) * 1000
                log.info("%s %s %s %.1f ms", scope["method"], scope["path"], status, spent_ms)
            request_id_var.reset(token)
