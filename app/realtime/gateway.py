"""``WS /ws/matches/{id}``: authenticate, attach to the match's session, relay messages."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.cluster.directory import ClusterUnavailable, Directory
from app.config import Settings
from app.errors import AppError
from app.matchmaking.rematch import RematchService
from app.moderation.state import ModerationState
from app.realtime.admission import CLOSE_NO_HELLO, HelloDeadline, admitted
from app.realtime.frames import FrameFlusher
from app.realtime.grab import arbitration_record, grab_action, grab_input
from app.realtime.messages import (
    Chat,
    Grab,
    Hello,
    MessageError,
    Pong,
    Rematch,
    Resync,
    parse_client_message,
    plain_action,
    pong_nonce,
    sequenced,
)
from app.realtime.peer import Peer
from app.realtime.pinger import Pinger
from app.realtime.ratelimit import TokenBucket
from app.realtime.relay import relay
from app.realtime.services import Services, ServicesDep
from app.security import read_token
from app.sessions import commands, wire
from app.sessions.hub import Hub, OwnedElsewhere
from app.sessions.session import GameSession

router = APIRouter()
log = logging.getLogger(__name__)


def _error(peer: Peer, code: str, message: str, client_seq: int | None = None) -> None:
    peer.send(wire.error(code, message, client_seq))


@router.websocket("/ws/matches/{match_id}")
async def match_socket(websocket: WebSocket, match_id: int, services: ServicesDep) -> None:
    """The match protocol (``serve_match``) for a socket its address may still open
    (``app.realtime.admission``). Most match sockets reach ``serve_admitted`` without this
    route, from ``app.realtime.entry``; the route serves what the entry leaves to the routed
    stack."""
    await serve_admitted(websocket, match_id, services)


async def serve_admitted(websocket: WebSocket, match_id: int, services: Services) -> None:
    """``serve_match`` for a socket its address may still open (``app.realtime.admission``)."""
    async with admitted(websocket, services) as allowed:
        if allowed:
            await serve_match(websocket, match_id, services)


async def serve_match(websocket: WebSocket, match_id: int, services: Services) -> None:
    """The match protocol (``app/protocol/match.py``); every refusal is an ``error`` with a code and
    the connection stays open (except a match that does not exist: 4404 after the error)."""
    settings: Settings = services.settings
    hub: Hub = services.hub
    flusher: FrameFlusher = services.flusher
    await websocket.accept()
    if hub.draining:  # handing matches over: reconnect (elsewhere) at once
        restarting = wire.error("server/restarting", "this server is restarting; reconnect")
        await websocket.send_text(wire.dumps(restarting))
        await websocket.close(1012)
        return
    cluster: Directory | None = services.cluster
    if cluster is not None and match_id not in hub.sessions:
        try:
            owner_url = await cluster.owner_elsewhere(match_id)
        except ClusterUnavailable as refusal:
            await websocket.send_text(wire.dumps(wire.error(refusal.code, refusal.message)))
            await websocket.close(1013)  # try again later
            return
        if owner_url is not None:  # another process serves it: a pipe to that one
            await relay(websocket, owner_url, match_id, settings, flusher)
            return
    pinger: Pinger = services.pinger
    peer = Peer(websocket, settings.outbox_limit, settings.ping_interval_s, flusher)
    writer = asyncio.create_task(peer.write_loop())
    pinger.add(peer)
    peer.on_cadence_change = functools.partial(pinger.refresh, peer)
    session: GameSession | None = None
    try:
        try:
            session = await hub.get(match_id)
            # Link pings and broadcast send times are stamped on the match's own clock.
            peer.use_clock(session.clock.precise)
            peer.measure_links = session.races is not None
            pinger.refresh(peer)
        except OwnedElsewhere as moved:
            # Another process claimed the match a moment ago: reconnecting reaches it.
            _error(peer, moved.code, moved.message)
            peer.close(1012)
            return
        except AppError as refusal:
            _error(peer, refusal.code, refusal.message)
            # 4404: the match does not exist (clients stop); otherwise try again later.
            stopping = refusal.code == "server/restarting"
            peer.close(4404 if refusal.status == 404 else 1012 if stopping else 1013)
            return
        except KeyError:
            _error(peer, "match/unavailable", "this server cannot play that game")
            peer.close(1011)
            return
        moderation = services.moderation.state
        await _serve(websocket, peer, session, settings, moderation, services.rematches)
    except WebSocketDisconnect:
        pass
    finally:
        if peer.frames is not None:
            peer.frames.on_text = None  # nothing reaches the session after its Detach
        if session is not None:
            session.submit(commands.Detach(peer))
        pinger.discard(peer)
        peer.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, 2)
        writer.cancel()


async def _serve(
    websocket: WebSocket,
    peer: Peer,
    session: GameSession,
    settings: Settings,
    moderation: ModerationState,
    rematches: RematchService,
) -> None:
    talk = _Conversation(peer, session, settings, moderation, rematches)
    frames = peer.frames
    hello = HelloDeadline(settings.hello_timeout_s)
    while True:
        hello.greeted = talk.greeted
        received = await hello.receive(websocket)
        if received is None:
            _error(peer, "hello/timeout", "no hello in time")
            peer.close(CLOSE_NO_HELLO)
            return
        arrival = peer.clock()  # before anything else: a grab's and a pong's arrival
        if received["type"] == "websocket.disconnect":
            return
        text = received.get("text")
        if text is None:
            _error(peer, "message/bad_json", "send JSON text frames")
            continue
        talk.handle(text, arrival)
        if talk.greeted and frames is not None and frames.on_text is None:
            # From now on text messages go from the socket straight to ``talk``; this loop
            # still sees what uvicorn queues (anything already queued, binary frames, the
            # disconnect).
            frames.on_text = talk.handle_now


class _Conversation:
    """One connection's side of the protocol: hello first, then actions, grabs, pongs, chat.
    Every refusal is an ``error`` with a stable code; the connection stays open."""

    def __init__(
        self,
        peer: Peer,
        session: GameSession,
        settings: Settings,
        moderation: ModerationState | None = None,
        rematches: RematchService | None = None,
    ) -> None:
        self.peer = peer
        self.session = session
        self.settings = settings
        # Bans and mutes, held in memory (``app.moderation.state``): checked per message.
        self.moderation = moderation or ModerationState()
        self.rematches = rematches  # the server's always; a test's conversation may have none
        self.limiter = TokenBucket(settings.rate_per_s, settings.rate_burst)
        self.greeted = False

    def handle_now(self, text: str) -> None:
        self.handle(text, self.peer.clock())

    def handle(self, text: str, arrival: float) -> None:
        """Handle one text message. Nothing a message does raises out of here: a failure is
        logged once and answered ``server/internal``; the connection and the match go on.
        Any message, even one refused, proves the client alive (``Peer.ping``)."""
        self.peer.heard = True
        try:
            self._handle(text, arrival)
        except Exception:
            log.exception(
                "match %s: a message from seat %s failed", self.session.match_id, self.peer.seat
            )
            _error(self.peer, "server/internal", "the server failed on this message")

    def _handle(self, text: str, arrival: float) -> None:
        peer, session, settings = self.peer, self.session, self.settings
        if len(text) > settings.max_message_bytes:
            _error(
                peer,
                "message/too_large",
                f"messages are limited to {settings.max_message_bytes} bytes",
            )
            return
        nonce = pong_nonce(text)
        if nonce is not None and peer.pong(nonce, arrival):
            return  # it answers our own ping: not charged to the client's message budget
        if not self.limiter.allow():
            # An action or grab is refused with its client_seq and when to send it again;
            # anything else at most once a second.
            client_seq = sequenced(text)
            if client_seq is not None:
                refusal = wire.error(
                    "rate/limited",
                    "too many messages; slow down",
                    client_seq,
                    retry_after_ms=self.limiter.wait_ms(),
                )
                peer.send(refusal)
            elif self.limiter.should_warn():
                _error(peer, "rate/limited", "too many messages; slow down")
            return
        if nonce is not None:
            return  # a pong for no ping of ours (or a repeat): ignored
        if self.greeted:
            plain = plain_action(text)
            if plain is not None:
                _act(peer, session, plain.client_seq, plain.seat, plain.action, plain.version)
                return
        try:
            message = parse_client_message(text)
        except MessageError as refusal:
            _error(peer, refusal.code, refusal.message)
            return
        if isinstance(message, Pong):
            peer.pong(message.nonce, arrival)
        elif isinstance(message, Hello):
            if self.greeted:
                _error(peer, "hello/repeated", "this connection already said hello")
                return
            if _greet(peer, session, message, settings, self.moderation):
                self.greeted = True
        elif not self.greeted:
            _error(peer, "hello/required", "say hello first")
        elif isinstance(message, Chat):
            _chat(peer, session, message, self.moderation)
        elif isinstance(message, Grab):
            _grab(peer, session, message, arrival)
        elif isinstance(message, Rematch):
            _rematch(peer, session, self.rematches)
        elif isinstance(message, Resync):
            # A patch did not fit the view held: a welcome with the whole view, in order.
            session.submit(commands.Attach(peer, message.last_version))
        else:
            _act(peer, session, message.client_seq, message.seat, message.action, message.version)


def _greet(
    peer: Peer, session: GameSession, hello: Hello, settings: Settings, moderation: ModerationState
) -> bool:
    account_id = None
    if hello.token is not None:
        try:
            account_id = read_token(settings.secret, hello.token, settings.token_ttl_s)
        except AppError as refusal:
            _error(peer, refusal.code, refusal.message)
            return False
    if moderation.is_banned(account_id):
        _error(peer, "auth/banned", "this account is banned")
        return False
    seats = session.seats_of(account_id)
    if hello.seat is not None and hello.seat not in seats:
        _error(peer, "hello/not_your_seat", f"you do not hold seat {hello.seat}")
        return False
    peer.account_id = account_id
    peer.seat = hello.seat if hello.seat is not None else (seats[0] if seats else None)
    if peer.seat is None:
        peer.measure_links = False  # a spectator never grabs: keep-alives are enough
    session.submit(commands.Attach(peer, hello.last_version))
    return True


def _chat(peer: Peer, session: GameSession, chat: Chat, moderation: ModerationState) -> None:
    """Only a seated player talks, under his seat's name: a spectator's line would carry no
    name a mute or ban could stop (a banned or muted player would watch and talk on), so any
    connection without a seat is refused ``chat/spectator``; spectators still read chat."""
    if peer.seat is None or peer.account_id is None:
        _error(peer, "chat/spectator", "only the match's players chat; spectators read")
        return
    if moderation.is_banned(peer.account_id):
        _error(peer, "auth/banned", "this account is banned")
        return
    if moderation.is_muted(peer.account_id):
        _error(peer, "chat/muted", "an admin muted your chat")
        return
    session.submit(commands.Chat(peer, chat.text))


def _seated(peer: Peer, seat: int | None, client_seq: int) -> bool:
    """The connection plays a seat, and the one the message names if it names one."""
    if peer.seat is None:
        _error(peer, "action/not_seated", "spectators cannot act", client_seq)
        return False
    if seat is not None and seat != peer.seat:
        text = f"this connection plays seat {peer.seat}, not seat {seat}"
        _error(peer, "action/not_your_seat", text, client_seq)
        return False
    return True


def _act(
    peer: Peer,
    session: GameSession,
    client_seq: int,
    seat: int | None,
    action: dict[str, Any],
    version: int | None,
) -> None:
    if _seated(peer, seat, client_seq):
        assert peer.seat is not None
        session.submit(commands.Submit(peer, peer.seat, client_seq, action, version))


def _rematch(peer: Peer, session: GameSession, rematches: RematchService | None) -> None:
    """Offer or accept a rematch (``app.matchmaking.rematch``): its news reaches every
    connection of the match; a refusal comes back to this one as an ``error``."""
    if peer.account_id is None or peer.seat is None:
        _error(peer, "rematch/not_seated", "only the match's players offer a rematch")
        return
    assert rematches is not None  # ``serve_match`` gives every conversation the service
    rematches.offer_soon(peer.account_id, session.match_id, functools.partial(_error, peer))


def _grab(peer: Peer, session: GameSession, message: Grab, arrival: float) -> None:
    if not _seated(peer, message.seat, message.client_seq):
        return
    assert peer.seat is not None
    session.submit(
        commands.Submit(
            peer,
            peer.seat,
            message.client_seq,
            grab_action(message),
            grab=True,
            arbitration=arbitration_record(message, peer.rtt_min_ms),
            measured=grab_input(message, arrival),
        )
    )
