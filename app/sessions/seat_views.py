"""What each connection of a match sees of its current version, as JSON built once per version."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from app.sessions import wire
from engines.base import Event, events_for, view_audience

if TYPE_CHECKING:
    from app.sessions.session import GameSession


class SeatViews:
    """The per-seat part of a patch (view, legal actions, awaited seats), cached until the
    match moves on (``clear``). Seats in one audience (``engines.base.view_audience``: the
    engine says they see the same view) share one view build and one encoding; the awaited
    seats are encoded once for everyone."""

    def __init__(self, session: GameSession) -> None:
        self.session = session
        self._bodies: dict[int | None, str] = {}
        self._views: dict[Hashable, str] = {}
        self._awaiting: str | None = None

    def clear(self) -> None:
        """The match has a new version: everything is built afresh when next asked for."""
        self._bodies.clear()
        self._views.clear()
        self._awaiting = None

    def body(self, seat: int | None) -> str:
        """``"view":…,"legal":…,"awaiting":…`` for ``seat``, to splice into a message."""
        body = self._bodies.get(seat)
        if body is not None:
            return body
        session = self.session
        audience = view_audience(session.engine, session.state, seat)
        view = self._views.get(audience)
        if view is None:
            view = self._views[audience] = wire.dumps(session.engine.view(session.state, seat))
        if self._awaiting is None:
            self._awaiting = wire.dumps(sorted(session._awaiting()))
        legal = session._legal(seat)
        legal_json = wire.dumps(legal) if legal else "[]"
        body = f'"view":{view},"legal":{legal_json},"awaiting":{self._awaiting}'
        self._bodies[seat] = body
        return body

    def patch_text(
        self,
        seat: int | None,
        version: int,
        events: list[Event],
        at_ms: int,
        public_events: str | None = None,
    ) -> str:
        """The ``patch`` message for ``seat``. ``public_events``: the events' JSON when every
        seat sees all of them (encoded once per broadcast instead of once per connection)."""
        shown = public_events if public_events is not None else wire.dumps(events_for(events, seat))
        head = f'{{"type":"patch","version":{version},"at_ms":{at_ms},"events":{shown},'
        return head + self.body(seat) + "}"
