"""``WS /ws/lobby``: the open tables now, then every lobby change as it happens."""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import APIRouter, WebSocket

from app.db.repositories import LobbyRepository
from app.errors import AppError
from app.lobby.service import lobby_json
from app.realtime.admission import CLOSE_NO_HELLO, HelloDeadline, admitted
from app.realtime.messages import Hello, MessageError, Pong, parse_client_message
from app.realtime.peer import Peer
from app.realtime.ratelimit import TokenBucket
from app.realtime.services import Services, ServicesDep
from app.security import read_token
from app.sessions import wire
from app.tournaments.service import TournamentService

router = APIRouter()


def signed_in(services: Services, token: str) -> int:
    """The account a hello's token names; refuses a bad token, and a banned account
    (``auth/banned``, as the match socket and REST do)."""
    settings = services.settings
    account_id = read_token(settings.secret, token, settings.token_ttl_s)
    if services.moderation.state.is_banned(account_id):
        raise AppError("auth/banned", "this account is banned", status=401)
    return account_id


@router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket, services: ServicesDep) -> None:
    """The lobby feed (``lobby_feed``) for a socket its address may still open
    (``app.realtime.admission``)."""
    async with admitted(websocket, services) as allowed:
        if allowed:
            await lobby_feed(websocket, services)


async def lobby_feed(websocket: WebSocket, services: Services) -> None:
    """Sends ``lobbies`` (open public tables) at once; a ``hello`` must follow within
    ``RAMPART_HELLO_TIMEOUT_S`` (else ``hello/timeout`` and close 4408). Its optional
    ``token`` adds the
    private tables the player sits at to the ``lobby`` updates it receives, and the player's
    own news: quick play's ``matched{ticket, match_id}``, the ``rematch`` messages
    (``app.matchmaking``, through ``LobbyFeed.notify``) and a tournament's call to his table
    (``table_ready``, at once for each table waiting for him, then as rounds are paired;
    ``table_closed`` once it is over)."""
    settings, feed = services.settings, services.lobby_feed
    await websocket.accept()
    hello = HelloDeadline(settings.hello_timeout_s)
    peer = Peer(websocket, settings.outbox_limit)
    writer = asyncio.create_task(peer.write_loop())
    async with services.sessionmaker() as db:
        lobbies = await LobbyRepository(db).list_open()
    listing = [{k: v for k, v in lobby_json(lb).items() if k != "invite_code"} for lb in lobbies]
    peer.send({"type": "lobbies", "lobbies": listing})
    feed.add(peer)
    limiter = TokenBucket(settings.rate_per_s, settings.rate_burst)
    try:
        while True:
            received = await hello.receive(websocket)
            if received is None:
                peer.send(wire.error("hello/timeout", "no hello in time"))
                peer.close(CLOSE_NO_HELLO)
                return
            if received["type"] == "websocket.disconnect":
                return
            text = received.get("text") or ""
            if len(text) > settings.max_message_bytes:
                peer.send(wire.error("message/too_large", "message too large"))
                continue
            if not limiter.allow():
                if limiter.should_warn():
                    peer.send(wire.error("rate/limited", "too many messages; slow down"))
                continue
            try:
                message = parse_client_message(text)
            except MessageError as refusal:
                peer.send(wire.error(refusal.code, refusal.message))
                continue
            hello.greeted = hello.greeted or isinstance(message, Hello)
            if isinstance(message, Hello) and message.token:
                try:
                    account_id = signed_in(services, message.token)
                except AppError as refusal:
                    peer.send(wire.error(refusal.code, refusal.message))
                else:
                    peer.account_id = account_id
                    feed.sign_in(peer)
                    await _call_to_waiting_tables(services.tournaments, peer, account_id)
            elif not isinstance(message, Pong | Hello):
                peer.send(wire.error("message/unknown_type", "the lobby feed takes hello only"))
    finally:
        feed.remove(peer)
        peer.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, 2)
        writer.cancel()


async def _call_to_waiting_tables(
    tournaments: TournamentService, peer: Peer, account_id: int
) -> None:
    """Each tournament table waiting for the player who just said hello: its call, and word
    to its session that he has been told."""
    for match_id, message in await tournaments.waiting(account_id):
        peer.send(message)
        tournaments.told(match_id, account_id)
