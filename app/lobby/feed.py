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
        # The signed-in sockets by account (``sign_in``): a player's news reaches his sockets
        # without a pass over everyone's.
        self._by_account: dict[int, set[Subscriber]] = {}
        self._account_of: dict[Subscriber, int] = {}
        self.relay: Relay | None = None
        # Hears of every call delivered to a socket of this process (the match's session
        # starts that player's abandonment grace): ``TournamentService.told``.
        self.on_told: Told | None = None

    def add(self, peer: Subscriber) -> None:
        """A lobby socket opened (not signed in yet)."""
        self.subscribers.add(peer)

    def sign_in(self, peer: Subscriber) -> None:
        """``peer`` said hello with a token: its player's news (``notify``, ``call``,
        ``drop``) reaches it from now on. Call it after setting ``peer.account_id``."""
        self._unindex(peer)
        if peer in self.subscribers and peer.account_id is not None:
            self._by_account.setdefault(peer.account_id, set()).add(peer)
            self._account_of[peer] = peer.account_id

    def remove(self, peer: Subscriber) -> None:
        """A lobby socket closed."""
        self.subscribers.discard(peer)
        self._unindex(peer)

    def _unindex(self, peer: Subscriber) -> None:
        account_id = self._account_of.pop(peer, None)
        if account_id is None:
            return
        peers = self._by_account.get(account_id, set())
        peers.discard(peer)
        if not peers:
            self._by_account.pop(account_id, None)

    def of(self, account_id: int) -> list[Subscriber]:
        """This process's signed-in sockets of ``account_id``."""
        return list(self._by_account.get(account_id, ()))

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
        if self.relay is None and account_id not in self._by_account:
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
        peers = self.of(account_id)
        for peer in peers:
            peer.send_text(text)
        return len(peers)

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
        dropped = self.of(account_id)
        for peer in dropped:
            peer.send_text(text)
            peer.close(code)
            self.remove(peer)
        return len(dropped)
