"""What one seat (or a spectator) may know of the match, as a JSON-able dict."""

from __future__ import annotations

from typing import Any

from engines.ambush.cards import CARD_ORDER
from engines.ambush.grid import cell_json, spiral_index
from engines.ambush.state import AmbushState


def awaiting(state: AmbushState) -> frozenset[int]:
    """Whose clock runs: the turn seat (turn, placing), the over-limit seats (returning);
    nobody during a race, which ends by itself."""
    if state.phase in ("turn", "placing"):
        return frozenset({state.turn})
    if state.phase == "returning" and state.returning is not None:
        return frozenset(state.returning.owed)
    return frozenset()


def to_act(state: AmbushState) -> frozenset[int]:
    """Every living seat: anyone may call Ambush!, grab in a race or resign."""
    if state.phase == "over":
        return frozenset()
    return frozenset(state.living())


def view(state: AmbushState, seat: int | None, public: dict[str, Any]) -> dict[str, Any]:
    """``public`` plus the viewer's own hand and still-valid Scout looks. Never another hand,
    a face-down identity the viewer has not looked at, the deck order, the RNG or anyone's
    captured cards."""
    out = dict(public)
    if seat is None or not 0 <= seat < state.seats:
        return out
    looks = state.looks[seat]
    if looks:
        out["battlefield"] = [
            {"cell": cell_json(cell), "card": looks[cell]}
            if cell in looks
            else {"cell": cell_json(cell)}
            for cell in sorted(state.grid, key=spiral_index)
        ]
    out["hand"] = sorted(state.hands[seat], key=CARD_ORDER.__getitem__)
    return out


def public_view(state: AmbushState, outcome: dict[str, Any] | None) -> dict[str, Any]:
    """What everyone may know: a spectator's view, and the base of every seat's view."""
    battlefield = [{"cell": cell_json(cell)} for cell in sorted(state.grid, key=spiral_index)]
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
    out: dict[str, Any] = {
        "game": "ambush",
        "phase": state.phase,
        "seats": state.seats,
        "to_act": sorted(to_act(state)),
        "awaiting": sorted(awaiting(state)),
        "outcome": outcome,
        "options": state.rules.to_json(),
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
        "last_check": None
        if state.last_check is None
        else {k: list(v) if isinstance(v, list) else v for k, v in state.last_check.items()},
        "quiet_turns": state.quiet_turns,
    }
    if state.exposed is not None:
        cell, card, by = state.exposed
        out["exposed"] = {"cell": cell_json(cell), "card": card, "seat": by}
    if state.reserved is not None:
        out["reserved"] = {"cell": cell_json(state.reserved[0]), "card": state.reserved[1]}
    race = state.race
    if race is not None:
        rules = state.rules
        ends_at = min(
            race.last_grab_at + rules.ambush_idle_ms, race.started_at + rules.ambush_max_ms
        )
        out["race"] = {
            "caller": race.caller,
            "started_at": race.started_at,
            "ends_at": ends_at,
            "deadline": ends_at,
            "max_end": race.started_at + rules.ambush_max_ms,
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
