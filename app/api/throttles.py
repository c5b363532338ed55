"""Limits the REST routes share: on the expensive reads anyone may make without logging in
(match listings, event logs, states and replays, standings: ``dependencies=[ANONYMOUS_READS]``),
and on new tables, a lobby or a practice match (``count_new_table``)."""

from __future__ import annotations

from fastapi import Depends, Request

from app.api.deps import LimitsDep, SettingsDep
from app.config import Settings
from app.errors import AppError
from app.ops.ratelimits import EdgeLimits, client_address
from app.security import read_token


async def limit_anonymous_reads(request: Request, limits: LimitsDep, settings: SettingsDep) -> None:
    """Without a valid bearer token, count the read against the client address's
    ``RAMPART_READ_ADDRESS_LIMIT`` (``rate/limited``, 429 with ``Retry-After``); a signed-in
    player's reads are not counted. The header is read here, not declared: these routes take
    no token of their own (those that do check it as before)."""
    if signed_in(request, settings):
        return
    await limits.rates.hit(limits.reads, client_address(request.scope.get("client")))


def signed_in(request: Request, settings: Settings) -> bool:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return False
    try:
        read_token(settings.secret, token.strip(), settings.token_ttl_s)
    except AppError:
        return False
    return True


ANONYMOUS_READS = Depends(limit_anonymous_reads)


async def count_new_table(request: Request, limits: EdgeLimits, account_id: int) -> None:
    """One new table for ``account_id`` and the client address: ``RAMPART_TABLE_ACCOUNT_LIMIT``
    and ``RAMPART_TABLE_ADDRESS_LIMIT`` (``rate/limited``, 429 with ``Retry-After``)."""
    address = client_address(request.scope.get("client"))
    await limits.rates.hit_all(
        (limits.tables_by_account, str(account_id)), (limits.tables_by_address, address)
    )
