"""The ``welcome`` a connection gets when it attaches to a match (or asks to ``resync``)."""

from __future__ import annotations

from typing import Protocol

from app.protocol.match import Welcome
from app.sessions.clock import MatchClock
from app.sessions.commands import History, SeatInfo
from app.sessions.position import Position
from app.sessions.seat_names import players_json
from app.sessions.seat_views import SeatViews
from engines.base import events_for


class Welcoming(Position, Protocol):
    """What of a match a welcome reads (``GameSession`` is one), its position (the seat views
    read it) included; nothing here changes it."""

    match_id: int
    version: int
    finished: bool
    seats: list[SeatInfo]
    clock: MatchClock
    history: History
    views: SeatViews

    def seats_of(self, account_id: int | None) -> list[int]: ...


def welcome(
    match: Welcoming, seat: int | None, account_id: int | None, last_version: int | None
) -> Welcome:
    """The match at its current version as ``seat`` sees it (the view is kept as the base of
    the next diff), carrying (``missed``) the events of each version missed since
    ``last_version`` when they are still kept."""
    missed = None
    if last_version is not None and last_version <= match.version:
        missed = match.history.since(last_version)
    return {
        "type": "welcome",
        "match_id": match.match_id,
        "seat": seat,
        "seats": match.seats_of(account_id),
        "version": match.version,
        "view": match.views.view_for(match, seat),
        "legal": match.views.legal_for(match, seat),
        "awaiting": match.views.awaiting(match),
        "at_ms": match.clock.now(),
        "clock_rate": match.clock.rate,
        "status": "finished" if match.finished else "running",
        "rated": match.rated,
        "resumed": missed is not None,
        "missed": [
            {"version": version, "at_ms": at_ms, "events": events_for(events, seat)}
            for version, events, at_ms in missed or []
        ],
        "names": [info.name for info in match.seats],
        "players": players_json(match.seats),
    }
