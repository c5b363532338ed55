"""What each connection of a match sees of its current version: a diff of the view it holds,
or the whole view, as JSON built once per version and shared by every seat that sees alike."""

from __future__ import annotations

import weakref
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from app.sessions import wire
from app.sessions.position import Position
from app.sessions.view_diff import DiffBuilder
from engines.base import Event, events_for, view_audience

# A view this short (encoded) goes whole in every patch: a diff could save only a little and
# would cost its comparison.
SMALL_VIEW_CHARS = 256
# ``_diff_part``'s answer for "send the whole view".
_WHOLE = ""


@dataclass
class _Built:
    """What was built of one version: views per audience, and per seat its audience and legal
    actions (the base of the next version's diffs), and the awaited seats."""

    views: dict[Hashable, dict[str, Any]] = field(default_factory=dict)
    audience_of: dict[int | None, Hashable] = field(default_factory=dict)
    legal: dict[int | None, list[dict[str, Any]]] = field(default_factory=dict)
    awaiting: list[int] | None = None


class SeatViews:
    """The per-seat part of a patch, cached until the match moves on.

    The view part is a diff (``app.sessions.view_diff``) from what the seat saw at the
    previous version, built and encoded once per pair of audiences (``view_audience``: seats
    that see alike, spectators included, share it); ``legal`` and ``awaiting`` go only when
    they changed. The whole view goes instead when the previous version's view of the seat
    was never built (nobody of the seat was there to see it, or the state was restored in
    place), when the diff would not be shorter, and for small views (``SMALL_VIEW_CHARS``).
    Every connection of a seat is in step: it got the previous version's patch or a
    ``welcome`` (built here too, ``view_for``) at the previous version."""

    def __init__(self, session: Position) -> None:
        # Weakly: the session holds its views, and a cycle would keep a match the hub dropped
        # until a full collection, which the server runs rarely (``app.collector``).
        self.session: Position = weakref.proxy(session)
        self._version = session.version
        self._current = _Built()
        self._previous: _Built | None = None
        self._texts: dict[Hashable, str] = {}  # encoded whole views, per audience
        self._sizes: dict[Hashable, int] = {}  # last encoded length of a whole view
        self._diffs: dict[tuple[Hashable, Hashable], str] = {}  # (old, new audience) -> part
        self._differ = DiffBuilder()  # this version's: shares work between audiences
        self._whole: dict[int | None, str] = {}
        self._bodies: dict[int | None, str] = {}
        self._awaiting_text: str | None = None
        # An engine may ask for whole views in every patch (``whole_views = True``): the
        # bench ``tally`` game, whose peer benchmark client reads ``view`` from every patch.
        self._whole_views = bool(getattr(session.engine, "whole_views", False))

    def clear(self) -> None:
        """The state changed: a new version (the current one becomes the base of the next
        diffs, when it is next asked for), or the state was restored in place at the same
        version (nothing built so far is trusted: the next patches carry whole views)."""
        if self.session.version == self._version:
            self._previous = None
            self._start(self._version)

    def _start(self, version: int) -> None:
        self._version = version
        self._current = _Built()
        self._texts.clear()
        self._diffs.clear()
        self._differ = DiffBuilder()
        self._whole.clear()
        self._bodies.clear()
        self._awaiting_text = None

    def _built(self) -> _Built:
        """This version's builds, moving on (lazily) when the match has."""
        version = self.session.version
        if version != self._version:
            self._previous = self._current if version == self._version + 1 else None
            self._start(version)
        return self._current

    # ----- this version, as objects ------------------------------------------------------

    def _audience_view(self, seat: int | None) -> tuple[Hashable, dict[str, Any]]:
        built = self._built()
        session = self.session
        audience = built.audience_of.get(seat)
        if audience is None and seat not in built.audience_of:
            audience = built.audience_of[seat] = view_audience(session.engine, session.state, seat)
        view = built.views.get(audience)
        if view is None:
            view = built.views[audience] = session.engine.view(session.state, seat)
        return audience, view

    def view_for(self, seat: int | None) -> dict[str, Any]:
        """The seat's view at this version (read-only; kept as the base of the next diff)."""
        return self._audience_view(seat)[1]

    def legal_for(self, seat: int | None) -> list[dict[str, Any]]:
        built = self._built()
        legal = built.legal.get(seat)
        if legal is None:
            legal = built.legal[seat] = self.session.legal(seat)
        return legal

    def awaiting(self) -> list[int]:
        built = self._built()
        if built.awaiting is None:
            built.awaiting = sorted(self.session.awaiting())
        return built.awaiting

    # ----- this version, as JSON ---------------------------------------------------------

    def _view_text(self, seat: int | None) -> str:
        audience, view = self._audience_view(seat)
        text = self._texts.get(audience)
        if text is None:
            text = self._texts[audience] = wire.dumps(view)
            self._sizes[audience] = len(text)
        return text

    def _awaiting_json(self) -> str:
        awaiting = self.awaiting()
        if self._awaiting_text is None:
            self._awaiting_text = wire.dumps(awaiting)
        return self._awaiting_text

    def whole_body(self, seat: int | None) -> str:
        """``"view":…,"legal":…,"awaiting":…`` for ``seat``, whole, to splice into a message."""
        self._built()
        body = self._whole.get(seat)
        if body is None:
            view = self._view_text(seat)
            legal = self.legal_for(seat)
            legal_json = wire.dumps(legal) if legal else "[]"
            body = f'"view":{view},"legal":{legal_json},"awaiting":{self._awaiting_json()}'
            self._whole[seat] = body
        return body

    def body(self, seat: int | None) -> str:
        """The seat's part of this version's patch: a diff from the previous version
        (``"base":…`` then ``"diff"``, ``"legal"``, ``"awaiting"`` where changed), or
        ``whole_body``."""
        self._built()  # moves on to this version first: ``_previous`` is then its base
        body = self._bodies.get(seat)
        if body is not None:
            return body
        previous = self._previous
        if previous is None or seat not in previous.audience_of:
            body = self.whole_body(seat)
        else:
            part = self._diff_part(previous, seat)
            if part == _WHOLE:
                body = self.whole_body(seat)
            else:
                body = part
                legal = self.legal_for(seat)
                if seat not in previous.legal or legal != previous.legal[seat]:
                    body += f',"legal":{wire.dumps(legal) if legal else "[]"}'
                awaiting = self.awaiting()
                if previous.awaiting is None or awaiting != previous.awaiting:
                    body += f',"awaiting":{self._awaiting_json()}'
        self._bodies[seat] = body
        return body

    def _diff_part(self, previous: _Built, seat: int | None) -> str:
        """``"base":…,"diff":…`` for the seat's view, or ``_WHOLE`` when the whole view is
        better sent; built once per pair of audiences."""
        old_audience = previous.audience_of[seat]
        audience, view = self._audience_view(seat)
        key = (old_audience, audience)
        part = self._diffs.get(key)
        if part is not None:  # ``_WHOLE`` included
            return part
        size = self._sizes.get(audience)
        if (size is not None and size <= SMALL_VIEW_CHARS) or self._whole_views:
            part = _WHOLE
        else:
            text = self._differ.diff_text(previous.views[old_audience], view)
            if size is None or len(text) * 2 >= size:
                # Near (or past) the whole view's size: weigh it exactly.
                size = len(self._view_text(seat))
            if len(text) >= size or size <= SMALL_VIEW_CHARS:
                part = _WHOLE
            else:
                base = f'"base":{self._version - 1}'
                part = f'{base},"diff":{text}' if text else base
        self._diffs[key] = part
        return part

    def patch_text(
        self,
        seat: int | None,
        version: int,
        events: list[Event],
        at_ms: int,
        public_events: str | None = None,
        *,
        whole: bool = False,
    ) -> str:
        """The ``patch`` message for ``seat``. ``public_events``: the events' JSON when every
        seat sees all of them (encoded once per broadcast instead of once per connection).
        ``whole``: with the whole view, for a connection not in step (a resumed one hears
        the versions it missed after a ``welcome`` at the current version)."""
        shown = public_events if public_events is not None else wire.dumps(events_for(events, seat))
        head = f'{{"type":"patch","version":{version},"at_ms":{at_ms},"events":{shown},'
        return head + (self.whole_body(seat) if whole else self.body(seat)) + "}"
