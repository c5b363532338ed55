"""What one seat (or a spectator) may know of the match, as a JSON-able dict."""

from __future__ import annotations

from itertools import compress
from typing import Any

from engines.ambush import rules
from engines.ambush.cards import CARD_ORDER
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
    return frozenset(compress(range(state.seats), state.alive))


_HAND_KEYS = tuple(f"hand{seat}" for seat in range(8))


def seat_view(state: AmbushState, seat: int | None) -> dict[str, Any]:
    """The public part plus the viewer's own hand and still-valid Scout looks. Never another
    hand, a face-down identity the viewer has not looked at, the deck order, the RNG or
    anyone's captured cards.

    The public part is built once per state revision, since the server (and the playout
    host) asks for every seat after every change; each call adds the seat's own cards to a
    fresh copy. Nested parts are shared between calls (see ``public_view``): treat a view as
    read-only."""
    # ``state.derived()`` inline on the usual path: this runs for every seat after every change.
    public = state.view_cache.get("public") if state.view_revision == state.revision else None
    if public is None:
        result = rules.outcome(state)
        public = public_view(state, None if result is None else result.to_json())
        state.derived()["public"] = public
    out = dict(public)
    if seat is None or not 0 <= seat < state.seats:
        return out
    looks = state.looks[seat]
    if looks:
        out["battlefield"] = [
            {"cell": [x, y], "card": looks[x, y]} if (x, y) in looks else {"cell": [x, y]}
            for x, y in state.cells_in_order()
        ]
    # Most moves leave a given hand as it was: its sorted copy is kept across revisions (views
    # are read-only) and rebuilt when the hand differs from the one it was sorted from.
    hand = state.hands[seat]
    memo_key = _HAND_KEYS[seat]
    sorted_from = state.view_memo.get(memo_key)
    if sorted_from is None or sorted_from[0] != hand:
        sorted_from = (list(hand), sorted(hand, key=CARD_ORDER.__getitem__))
        state.view_memo[memo_key] = sorted_from
    out["hand"] = sorted_from[1]
    return out


def public_view(state: AmbushState, outcome: dict[str, Any] | None) -> dict[str, Any]:
    """What everyone may know: a spectator's view, and the base of every seat's view."""
    # Built after every move, so: shared per-cell entries, the living seats as the sorted
    # ``to_act`` (no frozenset).
    battlefield = list(map(state.per_cell("").__getitem__, state.cells_in_order()))
    castles = [
        {
            "seat": s,
            "name": state.names[s],
            "hp": state.hp[s],
            "ward": state.ward[s],
            "alive": state.alive[s],
            "resigned": state.resigned[s],
            "hand_count": len(state.hands[s]),
            "captured_count": len(state.captured[s]),
        }
        for s in range(state.seats)
    ]
    memo = state.view_memo
    phase = state.phase
    # The living seats change only when a castle falls: kept while ``alive`` is the same.
    living = memo.get("living")
    if living is None or living[0] != state.alive:
        living = memo["living"] = (list(state.alive), state.living())
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
        "to_act": [] if phase == "over" else living[1],
        "awaiting": _awaiting_list(state),
        "outcome": outcome,
        "options": options,
        "turn": state.turn,
        "turn_number": state.turn_number,
        "step": state.step,
        "deck_count": len(state.deck),
        "castles": castles,
        "battlefield": battlefield,
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
        table = state.rules
        ends_at = min(
            race.last_grab_at + table.ambush_idle_ms, race.started_at + table.ambush_max_ms
        )
        out["race"] = {
            "caller": race.caller,
            "started_at": race.started_at,
            "ends_at": ends_at,
            "deadline": ends_at,
            "max_end": race.started_at + table.ambush_max_ms,
            "last_grab_at": race.last_grab_at,
            "next_free": list(race.next_free),
            "busy": [s for s in range(state.seats) if race.next_free[s] > race.last_grab_at],
            "grabs": race.grabs,
        }
    if state.returning is not None:
        out["returning"] = {
            "deadline": state.returning.deadline,
            "owed": [[s, n] for s, n in sorted(state.returning.owed.items())],
        }
    return out
