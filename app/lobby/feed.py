"""The lobby feed: everyone on ``/ws/lobby`` hears about public tables; members about theirs."""

from __future__ import annotations

from typing import Any

from app.realtime.peer import Peer
from app.sessions import wire


class LobbyFeed:
    def __init__(self) -> None:
        self.subscribers: set[Peer] = set()

    def publish(self, lobby: dict[str, Any], *, public: bool, members: set[int]) -> None:
        """Send a lobby snapshot; private lobbies only to their members (invite code kept)."""
        for peer in list(self.subscribers):
            is_member = peer.account_id is not None and peer.account_id in members
            if not (public or is_member):
                continue
            shown = lobby if is_member else {k: v for k, v in lobby.items() if k != "invite_code"}
            peer.send_text(wire.dumps({"type": "lobby", "lobby": shown}))
