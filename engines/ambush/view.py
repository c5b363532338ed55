"""What one seat (or a spectator) may know of the match, as a JSON-able dict."""

from __future__ import annotations

from typing import Any

from engines.ambush import rules
from engines.ambush.state import AmbushState


def awaiting(state: AmbushState) -> frozenset[int]:
    """Whose clock runs: the turn seat (turn, placing), the over-limit seats (returning);
    nobody during a race, which ends by itself."""
    if state.phase in ("turn", "placing"):
        return frozenset({state.turn})
    if state.phase == "returning" and state.returning is not None:
        return frozenset(state.returning.owed)
    return frozenset()


def _awaiting_list(state: AmbushState) -> list[int]:
    """``sorted(awaiting(state))`` without the frozenset, for the view built after every move."""
    phase = state.phase
    if phase == "turn" or phase == "placing":
        return [state.turn]
    if phase == "returning" and state.returning is not None:
        return sorted(state.returning.owed)
    return []


def to_act(state: AmbushState) -> frozenset[int]:
    """Every living seat: anyone may call Ambush!, grab in a race or resign."""
    if state.phase == "over":
        return frozenset()
    # Asked before every step: ``state.living_now()`` inline on the usual path.
    living = state.living_memo
    if living is None or living.alive != state.alive:
        living = state.living_now()
    return living.frozen


def seat_view(state: AmbushState, seat: int | None) -> dict[str, Any]:
    """The public part plus the viewer's own hand and still-valid Scout looks. Never another
    hand, a face-down identity the viewer has not looked at, the deck order, the RNG or
    anyone's captured cards.

    The public part is built once per state revision, since the server (and the playout
    host) asks for every seat after every change; each call adds the seat's own cards to a
    fresh copy. Nested parts are shared between calls (see ``public_view``): treat a view as
    read-only."""
    public = state.public
    if public is None or state.public_at != state.revision:
        public = _public(state)
    out = dict(public)
    if seat is None or not 0 <= seat < state.seats:
        return out
    looks = state.looks[seat]
    if looks:
        out["battlefield"] = [
            {"cell": [x, y], "card": looks[x, y]} if (x, y) in looks else {"cell": [x, y]}
            for x, y in state.cells_in_order()
        ]
    # ``state.sorted_hand(seat)`` inline on the usual path (the hand as it was last sorted).
    sorted_from = state.sorted_hands.get(seat)
    if sorted_from is not None and sorted_from[0] == state.hands[seat]:
        out["hand"] = sorted_from[1]
    else:
        out["hand"] = state.sorted_hand(seat)
    return out


def _public(state: AmbushState) -> dict[str, Any]:
    """The public part for this revision, built and kept (see ``AmbushState.public``)."""
    result = rules.outcome(state)
    public = state.public = public_view(state, None if result is None else result.to_json())
    state.public_at = state.revision
    return public


def _castles(state: AmbushState) -> list[dict[str, Any]]:
    # A plain loop over local names: a list comprehension is a function call of its own.
    castles = []
    names, hp, ward = state.names, state.hp, state.ward
    alive, resigned, hands, captured = state.alive, state.resigned, state.hands, state.captured
    for seat in range(state.seats):
        castles.append(
            {
                "seat": seat,
                "name": names[seat],
                "hp": hp[seat],
                "ward": ward[seat],
                "alive": alive[seat],
                "resigned": resigned[seat],
                "hand_count": len(hands[seat]),
                "captured_count": len(captured[seat]),
            }
        )
    return castles


def public_view(state: AmbushState, outcome: dict[str, Any] | None) -> dict[str, Any]:
    """What everyone may know: a spectator's view, and the base of every seat's view."""
    # Built after every move, so: shared per-cell entries, the living seats as the sorted
    # ``to_act`` (no frozenset).
    memo = state.view_memo
    phase = state.phase
    # The living seats change only when a castle falls: kept while ``alive`` is the same.
    living = state.living_memo
    if living is None or living.alive != state.alive:
        living = state.living_now()
    # The options never change and the last check only at a race's end: their view copies
    # are kept across revisions (views are read-only) and rebuilt when the source is replaced.
    options = memo.get("options")
    if options is None:
        options = memo["options"] = state.rules.to_json()
    check = state.last_check
    last_check = None
    if check is not None:
        copied = memo.get("last_check")
        if copied is None or copied[0] is not check:
            fresh = {k: list(v) if isinstance(v, list) else v for k, v in check.items()}
            copied = memo["last_check"] = (check, fresh)
        last_check = copied[1]
    out: dict[str, Any] = {
        "game": "ambush",
        "phase": phase,
        "seats": state.seats,
        "to_act": [] if phase == "over" else living.seats,
        "awaiting": [state.turn] if phase == "turn" else _awaiting_list(state),
        "outcome": outcome,
        "options": options,
        "turn": state.turn,
        "turn_number": state.turn_number,
        "step": state.step,
        "deck_count": len(state.deck),
        "castles": _castles(state),
        "battlefield": list(map(state.cell_entries.__getitem__, state.cells_in_order())),
        "exposed": None,
        "reserved": None,
        "placing_left": len(state.placing),
        "race": None,
        "returning": None,
        "last_check": last_check,
        "quiet_turns": state.quiet_turns,
    }
    if state.exposed is not None:
        (x, y), card, by = state.exposed
        out["exposed"] = {"cell": [x, y], "card": card, "seat": by}
    if state.reserved is not None:
        (x, y), card = state.reserved
        out["reserved"] = {"cell": [x, y], "card": card}
    race = state.race
    if race is not None:
        # Built after every grab: no builtin calls (``min``, ``list``) where an expression does.
        table = state.rules
        last = race.last_grab_at
        max_end = race.started_at + table.ambush_max_ms
        ends_at = last + table.ambush_idle_ms
        if ends_at > max_end:
            ends_at = max_end
        busy = []  # the seats whose hand is free only after the last grab
        for seat, free_at in enumerate(race.next_free):
            if free_at > last:
                busy.append(seat)
        out["race"] = {
            "caller": race.caller,
            "started_at": race.started_at,
            "ends_at": ends_at,
            "deadline": ends_at,
            "max_end": max_end,
            "last_grab_at": last,
            "next_free": [*race.next_free],
            "busy": busy,
            "grabs": race.grabs,
        }
    if state.returning is not None:
        out["returning"] = {
            "deadline": state.returning.deadline,
            "owed": [[s, n] for s, n in sorted(state.returning.owed.items())],
        }
    return out
