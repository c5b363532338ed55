"""The lobby feed: everyone on ``/ws/lobby`` hears about public tables; members about theirs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from app.sessions import wire

# Hands a message to the other processes (``app.cluster.bus.Bus.send``).
Relay = Callable[[str, dict[str, Any]], None]
# Told that a player's page has received the call to a match's table: (match, account).
Told = Callable[[int, int], None]


class Subscriber(Protocol):
    """A lobby socket as the feed sees it (``app.realtime.peer.Peer``): whose it is (None:
    not signed in), a non-blocking send and a close."""

    @property
    def account_id(self) -> int | None: ...

    def send_text(self, text: str) -> None: ...

    def close(self, code: int = 1000) -> None: ...


class LobbyFeed:
    """This process's lobby sockets. With several processes, ``relay`` carries every
    snapshot to the others, whose ``deliver_*`` pass it to their own sockets."""

    def __init__(self) -> None:
        self.subscribers: set[Subscriber] = set()
        self.relay: Relay | None = None
        # Hears of every call delivered to a socket of this process (the match's session
        # starts that player's abandonment grace): ``TournamentService.told``.
        self.on_told: Told | None = None

    @property
    def listened(self) -> bool:
        """Whether anyone, in this process or another, may be listening."""
        return bool(self.subscribers) or self.relay is not None

    def publish(self, lobby: dict[str, Any], *, public: bool, members: set[int]) -> None:
        """Send a lobby snapshot; private lobbies only to their members (invite code kept)."""
        self.deliver_lobby(lobby, public=public, members=members)
        if self.relay is not None:
            self.relay("lobby", {"lobby": lobby, "public": public, "members": sorted(members)})

    def broadcast(self, text: str) -> None:
        """Send one message to every lobby socket (tournament standings)."""
        self.deliver_text(text)
        if self.relay is not None:
            self.relay("feed", {"text": text})

    def notify(self, account_id: int, message: dict[str, Any]) -> None:
        """Send ``message`` to one player's lobby sockets, in whichever process they are
        (quick play's ``matched``)."""
        text = wire.dumps(message)
        self.deliver_to(account_id, text)
        if self.relay is not None:
            self.relay("notify", {"account_id": account_id, "text": text})

    def your_turn(self, match_id: int, account_id: int, awaiting: bool) -> None:
        """Tell a player's lobby sockets that a match started or stopped awaiting him
        (``your_turn``; the hub's turn listener). Alone, only a player with a socket open
        here costs an encoding; with several processes the notice goes to the others."""
        if self.relay is None and not any(p.account_id == account_id for p in self.subscribers):
            return
        message = {"type": "your_turn", "match_id": match_id, "awaiting_you": awaiting}
        self.notify(account_id, message)

    def call(self, account_id: int, match_id: int, message: dict[str, Any]) -> None:
        """Send a player the call to his table (``table_ready``) on every page he has open,
        in whichever process; each process that hands it to one of his sockets reports it
        through ``on_told``."""
        text = wire.dumps(message)
        self.deliver_call(account_id, match_id, text)
        if self.relay is not None:
            body = {"account_id": account_id, "match_id": match_id, "text": text}
            self.relay("call", body)

    def deliver_call(self, account_id: int, match_id: int, text: str) -> None:
        if self.deliver_to(account_id, text) and self.on_told is not None:
            self.on_told(match_id, account_id)

    def deliver_to(self, account_id: int, text: str) -> int:
        """Send ``text`` to this process's sockets of ``account_id``; returns how many."""
        sent = 0
        for peer in list(self.subscribers):
            if peer.account_id == account_id:
                peer.send_text(text)
                sent += 1
        return sent

    def deliver_lobby(self, lobby: dict[str, Any], *, public: bool, members: set[int]) -> None:
        for peer in list(self.subscribers):
            is_member = peer.account_id is not None and peer.account_id in members
            if not (public or is_member):
                continue
            shown = lobby if is_member else {k: v for k, v in lobby.items() if k != "invite_code"}
            peer.send_text(wire.dumps({"type": "lobby", "lobby": shown}))

    def deliver_text(self, text: str) -> None:
        for peer in list(self.subscribers):
            peer.send_text(text)

    def drop(self, account_id: int, text: str, code: int) -> int:
        """Send ``text`` to this process's sockets of ``account_id``, then close them with
        ``code`` (a ban: every process does it on the ban's notice); returns how many."""
        dropped = [peer for peer in list(self.subscribers) if peer.account_id == account_id]
        for peer in dropped:
            peer.send_text(text)
            peer.close(code)
            self.subscribers.discard(peer)
        return len(dropped)
