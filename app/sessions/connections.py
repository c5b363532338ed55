"""The connections attached to one match, and since when each absent player has been away."""

from __future__ import annotations

from app.sessions import wire
from app.sessions.commands import SeatInfo
from app.sessions.listener import MatchPeer


class Connections:
    """Who is attached (``peers``: players and spectators) and which players' seats are away
    (``away``: seat -> match time since when; a seat away past the grace is forfeited).

    A seat comes back when any connection of its account attaches, and goes away when the
    last one detaches; the other connections hear it (``presence``: "X is disconnected")."""

    def __init__(self, seats: list[SeatInfo], now: int) -> None:
        self.seats = seats
        self.peers: set[MatchPeer] = set()
        self.away: dict[int, int] = {
            seat: now for seat, info in enumerate(seats) if info.account_id is not None
        }
        # Seats whose player has been told where his table is (``told``), once each.
        self.called: set[int] = set()

    def seats_of(self, account_id: int | None) -> list[int]:
        if account_id is None:
            return []
        return [seat for seat, info in enumerate(self.seats) if info.account_id == account_id]

    def join(self, peer: MatchPeer, *, playing: bool) -> None:
        """Attach ``peer``; its account's seats are back (told to the others while
        ``playing``: the match is not over)."""
        self.peers.add(peer)
        if peer.seat is None:
            return
        mine = self.seats_of(peer.account_id)
        back = [seat for seat in mine if seat in self.away]
        for seat in mine:
            self.away.pop(seat, None)
        if playing:
            self._presence(back, connected=True, skip=peer)

    def leave(self, peer: MatchPeer, now: int, *, playing: bool) -> None:
        """Detach ``peer``; while ``playing``, once its account has no connection left its
        seats are away, and the others hear it."""
        self.peers.discard(peer)
        if not playing or peer.seat is None:
            return
        if any(other.account_id == peer.account_id for other in self.peers):
            return
        gone = self.seats_of(peer.account_id)
        for seat in gone:
            self.away[seat] = now
        self._presence(gone, connected=False)

    def told(self, account_id: int, now: int) -> list[int]:
        """The server has just delivered "your table is ready" to one of the player's pages
        (``app.lobby.feed.LobbyFeed.call``): the grace of each of his seats still away that
        was never told before starts again from ``now``. Returns those seats. A seat counts
        from the match's start until its player's first call, so a player with no page open
        is away as at any table; later calls change nothing."""
        restarted = []
        for seat in self.seats_of(account_id):
            if seat in self.called:
                continue
            self.called.add(seat)
            if seat in self.away:
                self.away[seat] = max(self.away[seat], now)
                restarted.append(seat)
        return restarted

    def tell_all(self, text: str, *, skip: MatchPeer | None = None) -> None:
        for peer in list(self.peers):
            if peer is not skip:
                peer.send_text(text)

    def _presence(
        self, seats: list[int], *, connected: bool, skip: MatchPeer | None = None
    ) -> None:
        for seat in seats:
            message = {"type": "presence", "seat": seat, "connected": connected}
            self.tell_all(wire.dumps(message), skip=skip)

    def next_abandonment(self, grace_ms: int) -> int | None:
        """When the first away seat runs out of grace (None: none is away, or no grace)."""
        if grace_ms <= 0 or not self.away:
            return None
        return min(self.away.values()) + grace_ms

    def abandoned(self, grace_ms: int, now: int) -> int | None:
        """The first seat away past the grace, no longer counted as away; None if none."""
        if grace_ms <= 0:
            return None
        for seat, since in self.away.items():
            if since + grace_ms <= now:
                del self.away[seat]
                return seat
        return None
