"""Playing cards onto the stack, response windows, and resolving the stack top first."""

from __future__ import annotations

from typing import Any

from engines.base import Event, make_event
from engines.ember.effects import resolve_card, resolve_response, shown
from engines.ember.state import EmberState
from engines.ember.targeting import attacked_seat


def play_card(
    state: EmberState,
    seat: int,
    uid: int,
    declared: dict[str, Any],
    at_ms: int,
    events: list[Event],
    *,
    from_arcane: bool = False,
) -> bool:
    """Play ``uid`` (already validated) with its declared targets; True if it fully resolved.

    Rulebook, Play phase: the card goes to its area (the emberscape unless its symbol says
    otherwise) and its effects activate. Rulebook, Response effects: an attack first opens a
    response window for the attacked seat; the stack resolves when that window closes.
    """
    player = state.players[seat]
    (player.arcane if from_arcane else player.hand).remove(uid)
    card = state.card(uid)
    zone = "stack"
    face_down = card.play == "face_down"
    if card.to_scape:
        player.scape.append(uid)
        zone = "scape"
        if face_down:
            player.face_down.append(uid)
    target_seat = declared.get("target_seat")
    target_card = declared.get("target_card")
    state.stack.append(
        {
            "role": "card",
            "seat": seat,
            "uid": uid,
            "target_seat": target_seat,
            "target_card": target_card,
            "choice": declared.get("choice"),
            "answers": None,
            "cancelled": False,
            "stopped": False,
            "zone": zone,
        }
    )
    public: dict[str, Any] = {"seat": seat, "uid": uid, "from": "arcane" if from_arcane else "hand"}
    if face_down and not from_arcane:
        # An arcane card is flipped before it is played, so only a hand card stays secret.
        events.append(
            make_event(
                "played",
                visible_to=[seat],
                redacted={**public, "face_down": True},
                **public,
                card=card.id,
                face_down=True,
            )
        )
    else:
        events.append(
            make_event(
                "played",
                **public,
                card=card.id,
                face_down=face_down,
                target_seat=target_seat,
                target_card=target_card,
            )
        )
    if card.attack is not None and target_seat is not None:
        return open_window(state, target_seat, at_ms, events)
    resolve_stack(state, events)
    return True


def open_window(state: EmberState, seat: int, at_ms: int, events: list[Event]) -> bool:
    """Open the response window for ``seat``; True if it closed at once (seat resigned).

    Every attacked seat gets the same window whether or not it holds a response card, so the
    window itself reveals nothing.
    """
    if state.players[seat].resigned:
        resolve_stack(state, events)
        return True
    state.window = {"seat": seat, "opened_ms": at_ms}
    state.phase = "respond"
    events.append(make_event("window_opened", seat=seat, deadline=at_ms + state.response_ms))
    return False


def respond(state: EmberState, seat: int, uid: int, at_ms: int, events: list[Event]) -> bool:
    """Play response ``uid`` (validated) on top of the stack; True if the stack resolved."""
    player = state.players[seat]
    if uid in player.hand:
        player.hand.remove(uid)
        zone = "stack"
    else:
        player.face_down.remove(uid)
        zone = "scape"
    answers = len(state.stack) - 1
    item: dict[str, Any] = {
        "role": "response",
        "seat": seat,
        "uid": uid,
        "target_seat": None,
        "target_card": None,
        "choice": None,
        "answers": answers,
        "cancelled": False,
        "stopped": False,
        "zone": zone,
    }
    state.stack.append(item)
    state.window = None
    events.append(make_event("responded", seat=seat, answers=answers, **shown(state, uid)))
    against = attacked_seat(state, item)
    assert against is not None
    return open_window(state, against, at_ms, events)


def close_window(state: EmberState, reason: str, events: list[Event]) -> None:
    """The window's seat passed (or its time ran out): resolve the whole stack."""
    assert state.window is not None
    events.append(make_event("window_closed", seat=state.window["seat"], reason=reason))
    state.window = None
    resolve_stack(state, events)


def resolve_stack(state: EmberState, events: list[Event]) -> None:
    """Rulebook, Response effects: the latest response resolves first, the played card last."""
    state.window = None
    while state.stack:
        item = state.stack[-1]
        if item["role"] == "response":
            resolve_response(state, item, events)
        else:
            resolve_card(state, item, events)
        state.stack.pop()
    events.append(make_event("resolved"))
