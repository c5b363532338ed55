"""What a match's connections hear from its session: each logged version (the mover's answer
first, then every connection's own patch), a welcome on attaching, chat, the turn clocks and
the end."""

from __future__ import annotations

import time
from typing import Any, Final, Protocol

from app.ops.metrics import METRICS
from app.protocol.match import Ended
from app.races.claims import Decision
from app.sessions import wire
from app.sessions.commands import Change
from app.sessions.connections import Connections
from app.sessions.listener import MatchPeer
from app.sessions.races import RaceDesk
from app.sessions.replies import Replies
from app.sessions.seat_views import Shared, patch_head
from app.sessions.timecontrol import TurnClocks
from app.sessions.turns import TurnWatch
from app.sessions.welcome import Welcoming, welcome
from engines.base import ALL, Event, events_for

# How a public event made by ``make_event`` ends in the log's JSON (``public_events``).
PUBLIC_END: Final = f',"visible_to":"{ALL}"}}'


def public_events(events: list[Event], logged: str) -> str | None:
    """The events' JSON as every connection gets it, when every event is shown whole to
    everyone (None when some are not: each seat then gets its own filter, ``events_for``).

    Made from ``logged``, their JSON in the action log's row, when it can be. All that
    ``events_for`` takes out of a public event is its ``visible_to`` (and a ``redacted``
    form): an event ``make_event`` made has ``visible_to`` as its last key, and orjson writes
    keys in their order, so its JSON ends with ``PUBLIC_END``, which is then replaced by the
    closing brace alone. That is done only when the text holds ``PUBLIC_END`` exactly once
    per event: a JSON string escapes its quotes, so only an object whose last key is
    ``visible_to`` makes it, and a nested one would make one more. Otherwise the filtered
    events are encoded (the same bytes, at the cost of copying and encoding them again)."""
    from_log = True
    for event in events:
        if event.get("visible_to", ALL) != ALL:
            return None
        if "redacted" in event or next(reversed(event)) != "visible_to":
            from_log = False
    if from_log and logged.count(PUBLIC_END) == len(events):
        return logged.replace(PUBLIC_END, "}")
    return wire.dumps(events_for(events, None))


class Announced(Welcoming, Protocol):
    """What of a match the announcer reads (``GameSession`` is one); nothing here changes it.
    Its collaborators (connections, views, replies, turn watch and clocks) are the match's
    for its whole life."""

    ended: Ended | None
    races: RaceDesk | None
    connections: Connections
    replies: Replies
    turns: TurnWatch
    turn_clocks: TurnClocks


class Announcer:
    """Tells the match's connections; changes nothing of the match. Whatever a connection
    gets of the state comes from the seat views (``SeatViews``), so hidden information stays
    hidden."""

    def __init__(self, match: Announced) -> None:
        # The match itself is handed to the calls that read it, never kept, as ``SeatViews``
        # does: the session holds its announcer, and a cycle would keep a match the hub
        # dropped until a full collection. Not weakly either: the compiled session has no
        # weak reference slot (``scripts/build_compiled.py``).
        self.seats, self.clock, self.views = match.seats, match.clock, match.views
        self.connections, self.peers = match.connections, match.connections.peers
        self.replies, self.turns, self.turn_clocks = match.replies, match.turns, match.turn_clocks

    def version(
        self, match: Announced, change: Change, version: int, decided: list[Decision]
    ) -> None:
        """A change logged as ``version``: the mover's answer first, then the grabs decided
        with it, then every connection's own patch; then whose turn it is, per account."""
        if change.before_broadcast is not None:
            change.before_broadcast(version)
        for decision in decided:
            self.replies.grab_decided(decision, self.clock.now())
        started = time.perf_counter()
        events, at_ms, views = change.events, change.at_ms, self.views
        shown = public_events(events, change.events_json)
        if shown is not None:
            # Everyone sees the same events: one head, and one text per distinct body.
            head = patch_head(version, at_ms, shown)
            texts: Shared = {}
            for peer in list(self.peers):
                peer.send_numbered(views.shared_patch(match, peer.seat, head, texts), version)
        else:
            # Each seat its own events: one text per seat, shared by its connections.
            by_seat: dict[int | None, str] = {}
            for peer in list(self.peers):
                seat = peer.seat
                text = by_seat.get(seat)
                if text is None:
                    text = by_seat[seat] = views.patch_text(match, seat, version, events, at_ms)
                peer.send_numbered(text, version)
        METRICS.broadcast_seconds.observe(time.perf_counter() - started)
        self.turns.moved(views.awaiting(match))

    def attach(self, match: Announced, peer: MatchPeer, last_version: int | None) -> None:
        """A connection joins: a ``welcome`` at the current version (``welcome.py``), the
        ``ended`` message of a match over, then the clocks. Nothing after the welcome is
        older than it: a resumed client never sees versions go backwards."""
        playing = not match.finished
        if peer.seat is not None and match.races is not None and playing:
            peer.race_pings(True)  # only players race: spectators keep the idle cadence
        self.connections.join(peer, playing=playing)
        message = welcome(match, peer.seat, peer.account_id, last_version)
        peer.send_numbered(wire.dumps(message), match.version)
        if not playing and match.ended is not None:
            peer.send_text(wire.dumps(match.ended))
        if self.turn_clocks.deadlines:
            peer.send_text(wire.dumps(self.clock_message()))

    def chat(self, peer: MatchPeer, text: str) -> None:
        seat = peer.seat
        name = self.seats[seat].name if seat is not None else "spectator"
        message = {"type": "chat", "seat": seat, "name": name, "text": text}
        self.connections.tell_all(wire.dumps(message))

    def clocks(self) -> None:
        """The turn clocks' deadlines changed."""
        self.connections.tell_all(wire.dumps(self.clock_message()))

    def ended(self, ended: Ended) -> None:
        """The match is over, its result recorded: every connection hears it (and stops the
        grab races' ping cadence)."""
        for peer in list(self.peers):
            peer.race_pings(False)
        self.connections.tell_all(wire.dumps(ended))

    def clock_message(self) -> dict[str, Any]:
        return self.turn_clocks.message(self.clock.now(), len(self.seats))
