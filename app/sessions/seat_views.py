"""What each connection of a match sees of its current version: a diff of the view it holds,
or the whole view, as JSON built once per version and shared by every seat that sees alike."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from app.sessions import wire
from app.sessions.position import Position
from app.sessions.view_diff import DiffBuilder
from engines.base import Event, awaiting_seats, events_for, view_audience

# A view this short (encoded) goes whole in every patch: a diff could save only a little and
# would cost its comparison.
SMALL_VIEW_CHARS = 256
# ``_diff_part``'s answer for "send the whole view".
_WHOLE = ""
# A broadcast's patch texts, by the identity of their body (``SeatViews.shared_patch``).
Shared = dict[int, str]


class _Built:
    """What was built of one version: views per audience; per seat its audience and legal
    actions (the base of the next version's diffs), the awaited seats; and their JSON."""

    __slots__ = (
        "audience_of",
        "awaiting",
        "awaiting_text",
        "bodies",
        "differ",
        "diffs",
        "idle",
        "legal",
        "texts",
        "to_act",
        "version",
        "views",
        "whole",
    )

    def __init__(self, version: int) -> None:
        self.version = version
        self.views: dict[Hashable, dict[str, Any]] = {}
        self.audience_of: dict[int | None, Hashable] = {}
        self.legal: dict[int | None, list[dict[str, Any]]] = {}
        self.to_act: frozenset[int] | None = None
        self.awaiting: list[int] | None = None
        self.texts: dict[Hashable, str] = {}  # encoded whole views, per audience
        self.diffs: dict[tuple[Hashable, Hashable], str] = {}  # (old, new audience) -> part
        self.differ: DiffBuilder | None = None  # this version's: shares work between audiences
        self.whole: dict[int | None, str] = {}
        self.idle: dict[Hashable, str] = {}  # whole bodies of seats with no legal action
        self.bodies: dict[int | None, str] = {}
        self.awaiting_text: str | None = None


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

    def __init__(self, match: Position) -> None:
        # The match is passed to each call, never kept: the session holds its views, and a
        # cycle would keep a match the hub dropped until a full collection, which the server
        # runs rarely (``app.collector``). Not a weak reference either: the compiled session
        # (``scripts/build_compiled.py``) has no weak reference slot.
        self._now = _Built(match.version)
        self._previous: _Built | None = None
        self._sizes: dict[Hashable, int] = {}  # last encoded length of a whole view
        # An engine may ask for whole views in every patch (``Engine.whole_views``), for a
        # client that reads ``view`` from each patch.
        self._whole_views = match.engine.whole_views

    def clear(self, match: Position) -> None:
        """The state changed: a new version (the current one becomes the base of the next
        diffs, when it is next asked for), or the state was restored in place at the same
        version (nothing built so far is trusted: the next patches carry whole views)."""
        if match.version == self._now.version:
            self._previous = None
            self._now = _Built(self._now.version)

    def _built(self, match: Position) -> _Built:
        """This version's builds, moving on (lazily) when the match has."""
        version = match.version
        built = self._now
        if version != built.version:
            self._previous = built if version == built.version + 1 else None
            built = self._now = _Built(version)
        return built

    # ----- this version, as objects ------------------------------------------------------

    def view_for(self, match: Position, seat: int | None) -> dict[str, Any]:
        """The seat's view at this version (read-only; kept as the base of the next diff)."""
        return self._audience_view(match, self._built(match), seat)[1]

    def legal_for(self, match: Position, seat: int | None) -> list[dict[str, Any]]:
        """The seat's legal actions now ([] for a spectator, a seat not to act, the end)."""
        return self._legal(match, self._built(match), seat)

    def awaiting(self, match: Position) -> list[int]:
        """The seats the game waits for now, in order (none once the match is over)."""
        return self._awaiting(match, self._built(match))

    def _audience_view(
        self, match: Position, built: _Built, seat: int | None
    ) -> tuple[Hashable, dict[str, Any]]:
        audience = built.audience_of.get(seat)
        if audience is None and seat not in built.audience_of:
            audience = built.audience_of[seat] = view_audience(match.engine, match.state, seat)
        view = built.views.get(audience)
        if view is None:
            view = built.views[audience] = match.engine.view(match.state, seat)
        return audience, view

    def _legal(self, match: Position, built: _Built, seat: int | None) -> list[dict[str, Any]]:
        legal = built.legal.get(seat)
        if legal is None:
            legal = []
            if seat is not None and not match.finished:
                to_act = built.to_act
                if to_act is None:
                    to_act = built.to_act = match.engine.to_act(match.state)
                if seat in to_act:
                    legal = match.engine.legal_actions(match.state, seat)
            built.legal[seat] = legal
        return legal

    def _awaiting(self, match: Position, built: _Built) -> list[int]:
        if built.awaiting is None:
            awaited = () if match.finished else awaiting_seats(match.engine, match.state)
            built.awaiting = sorted(awaited)
        return built.awaiting

    # ----- this version, as JSON ---------------------------------------------------------

    def _view_text(self, match: Position, built: _Built, seat: int | None) -> str:
        audience, view = self._audience_view(match, built, seat)
        text = built.texts.get(audience)
        if text is None:
            text = built.texts[audience] = wire.dumps(view)
            self._sizes[audience] = len(text)
        return text

    def _awaiting_json(self, match: Position, built: _Built) -> str:
        if built.awaiting_text is None:
            built.awaiting_text = wire.dumps(self._awaiting(match, built))
        return built.awaiting_text

    def _whole_body(self, match: Position, built: _Built, seat: int | None) -> str:
        """``"view":…,"legal":…,"awaiting":…`` for ``seat``, whole, to splice into a message.
        Seats with no legal action that see alike (spectators, players waiting for their
        turn) get one body, the same object, so a broadcast shares their patch text too."""
        body = built.whole.get(seat)
        if body is None:
            legal = self._legal(match, built, seat)
            if legal:
                body = self._compose_whole(match, built, seat, wire.dumps(legal))
            else:
                audience = self._audience_view(match, built, seat)[0]
                body = built.idle.get(audience)
                if body is None:
                    body = built.idle[audience] = self._compose_whole(match, built, seat, "[]")
            built.whole[seat] = body
        return body

    def _compose_whole(
        self, match: Position, built: _Built, seat: int | None, legal_json: str
    ) -> str:
        view = self._view_text(match, built, seat)
        awaiting = self._awaiting_json(match, built)
        return f'"view":{view},"legal":{legal_json},"awaiting":{awaiting}'

    def body(self, match: Position, seat: int | None) -> str:
        """The seat's part of this version's patch: a diff from the previous version
        (``"base":…`` then ``"diff"``, ``"legal"``, ``"awaiting"`` where changed), or the
        whole view, legal actions and awaited seats."""
        built = self._built(match)  # first: ``_previous`` is its base
        return self._body(match, built, seat)

    def _body(self, match: Position, built: _Built, seat: int | None) -> str:
        body = built.bodies.get(seat)
        if body is None:
            body = built.bodies[seat] = self._fresh_body(match, built, seat)
        return body

    def _fresh_body(self, match: Position, built: _Built, seat: int | None) -> str:
        previous = self._previous
        if previous is None or self._whole_views or seat not in previous.audience_of:
            return self._whole_body(match, built, seat)
        part = self._diff_part(match, built, previous, seat)
        if part == _WHOLE:
            return self._whole_body(match, built, seat)
        legal = self._legal(match, built, seat)
        if seat not in previous.legal or legal != previous.legal[seat]:
            part += f',"legal":{wire.dumps(legal) if legal else "[]"}'
        awaiting = self._awaiting(match, built)
        if previous.awaiting is None or awaiting != previous.awaiting:
            part += f',"awaiting":{self._awaiting_json(match, built)}'
        return part

    def _diff_part(self, match: Position, built: _Built, previous: _Built, seat: int | None) -> str:
        """``"base":…,"diff":…`` for the seat's view, or ``_WHOLE`` when the whole view is
        better sent; built once per pair of audiences."""
        old_audience = previous.audience_of[seat]
        audience, view = self._audience_view(match, built, seat)
        key = (old_audience, audience)
        part = built.diffs.get(key)
        if part is not None:  # ``_WHOLE`` included
            return part
        size = self._sizes.get(audience)
        if size is not None and size <= SMALL_VIEW_CHARS:
            part = _WHOLE
        else:
            if built.differ is None:
                built.differ = DiffBuilder()
            text = built.differ.diff_text(previous.views[old_audience], view)
            if size is None or len(text) * 2 >= size:
                # Near (or past) the whole view's size: weigh it exactly.
                size = len(self._view_text(match, built, seat))
            if len(text) >= size or size <= SMALL_VIEW_CHARS:
                part = _WHOLE
            else:
                base = f'"base":{built.version - 1}'
                part = f'{base},"diff":{text}' if text else base
        built.diffs[key] = part
        return part

    def patch_text(
        self,
        match: Position,
        seat: int | None,
        version: int,
        events: list[Event],
        at_ms: int,
        *,
        whole: bool = False,
    ) -> str:
        """The ``patch`` message for ``seat``, with the events it may see (a broadcast where
        every seat sees them all goes through ``shared_patch`` instead). ``whole``: with the
        whole view, for a connection not in step (a resumed one hears the versions it missed
        after a ``welcome`` at the current version)."""
        shown = wire.dumps(events_for(events, seat))
        built = self._built(match)
        body = self._whole_body(match, built, seat) if whole else self._body(match, built, seat)
        return patch_head(version, at_ms, shown) + body + "}"

    def shared_patch(self, match: Position, seat: int | None, head: str, texts: Shared) -> str:
        """The ``patch`` for ``seat`` in a broadcast where every seat sees the same events
        (``head``: ``patch_head``): connections whose part is the same object (one seat's, or
        seats that share a body: ``_whole_body``) share one text, kept in ``texts`` for the
        length of the broadcast."""
        body = self.body(match, seat)
        key = id(body)  # the body is held by this version's builds for the whole broadcast
        text = texts.get(key)
        if text is None:
            text = texts[key] = head + body + "}"
        return text


def patch_head(version: int, at_ms: int, events_json: str) -> str:
    """A ``patch`` message up to its seat's part (``SeatViews.body``)."""
    return f'{{"type":"patch","version":{version},"at_ms":{at_ms},"events":{events_json},'
