"""The per-address limit on the expensive reads anyone may make without logging in (match
listings, event logs, states and replays, standings): ``dependencies=[ANONYMOUS_READS]``."""

from __future__ import annotations

from fastapi import Depends, Request

from app.errors import AppError
from app.ops.ratelimits import EdgeLimits, client_address
from app.security import read_token


async def limit_anonymous_reads(request: Request) -> None:
    """Without a valid bearer token, count the read against the client address's
    ``RAMPART_READ_ADDRESS_LIMIT`` (``rate/limited``, 429 with ``Retry-After``); a signed-in
    player's reads are not counted. The header is read here, not declared: these routes take
    no token of their own (those that do check it as before)."""
    if signed_in(request):
        return
    limits: EdgeLimits = request.app.state.limits
    await limits.rates.hit(limits.reads, client_address(request.scope.get("client")))


def signed_in(request: Request) -> bool:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return False
    settings = request.app.state.settings
    try:
        read_token(settings.secret, token.strip(), settings.token_ttl_s)
    except AppError:
        return False
    return True


ANONYMOUS_READS = Depends(limit_anonymous_reads)
