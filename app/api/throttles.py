"""The per-address limit on the expensive reads anyone may make without logging in (match
listings, event logs, states and replays, standings): ``dependencies=[ANONYMOUS_READS]``."""

from __future__ import annotations

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials

from app.api.deps import Bearer
from app.errors import AppError
from app.ops.ratelimits import EdgeLimits, client_address
from app.security import read_token


async def limit_anonymous_reads(request: Request, credentials: Bearer) -> None:
    """Without a valid bearer token, count the read against the client address's
    ``RAMPART_READ_ADDRESS_LIMIT`` (``rate/limited``, 429 with ``Retry-After``); a logged-in
    player's reads are not counted (the route still checks the token as before)."""
    if signed_in(request, credentials):
        return
    limits: EdgeLimits = request.app.state.limits
    await limits.rates.hit(limits.reads, client_address(request.scope.get("client")))


def signed_in(request: Request, credentials: HTTPAuthorizationCredentials | None) -> bool:
    if credentials is None:
        return False
    settings = request.app.state.settings
    try:
        read_token(settings.secret, credentials.credentials, settings.token_ttl_s)
    except AppError:
        return False
    return True


ANONYMOUS_READS = Depends(limit_anonymous_reads)
