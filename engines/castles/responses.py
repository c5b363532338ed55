"""Out-of-turn answers in a response window: pass, switch Trap prompts off, Trap, strike."""

from __future__ import annotations

from typing import Any

from engines.base import Event, IllegalAction, make_event
from engines.castles.board import is_soldier, side_of
from engines.castles.combat import attack_damage, damage, destroy
from engines.castles.playing import card_field
from engines.castles.state import DISCARD, HAND, PLAY, GameState
from engines.castles.turns import close_window

CODE = "castles/"


def respond(state: GameState, seat: int, action: dict[str, Any]) -> list[Event]:
    """Answer the open window: ``pass``, ``trap_prompts_off`` (pass, and no Trap windows for
    this seat for the rest of the match), ``trap`` (card, target) or ``strike`` (card, target).

    Raises castles/not_responder, castles/not_in_hand, castles/bad_target, castles/already_acted
    (that Soldier already struck in this window).
    """
    window = state.window
    if window is None or seat not in window.responders:
        raise IllegalAction(CODE + "not_responder", "you have no open window")
    kind = action["type"]
    events: list[Event]
    if kind in ("pass", "trap_prompts_off"):
        window.responders.remove(seat)
        if kind == "trap_prompts_off":
            state.prompts_off[seat] = True
        events = [make_event("passed", seat=seat)]
    elif kind == "trap":
        trap = card_field(state, action, "card")
        target = card_field(state, action, "target")
        if trap.place != HAND or trap.holder != seat or trap.kind != "trap":
            raise IllegalAction(CODE + "not_in_hand", "that Trap is not in your hand")
        if target.id not in window.trap_targets or state.prompts_off[seat]:
            raise IllegalAction(CODE + "bad_target", "Trap only a card that entered your Middle")
        state.hands[seat].remove(trap.id)
        trap.place, trap.holder, trap.seen_by = DISCARD, -1, []
        state.discard.append(trap.id)
        events = [make_event("played", seat=seat, card=trap.id, card_kind="trap", target=target.id)]
        destroy(state, target, events)
    else:
        striker = card_field(state, action, "card")
        target = card_field(state, action, "target")
        if striker.place != PLAY or striker.side != side_of(seat) or not is_soldier(striker):
            raise IllegalAction(CODE + "not_your_card", "strike with your own Soldier")
        if striker.id in window.struck:
            raise IllegalAction(CODE + "already_acted", "that Soldier already struck")
        if target.id not in window.strike_targets:
            raise IllegalAction(CODE + "bad_target", "strike only a card crossing now")
        window.struck.append(striker.id)
        events = [make_event("attacked", card=striker.id, target=target.id)]
        damage(state, target, attack_damage(state, striker, target), "strike", events)
    if state.window is window and (
        not window.responders or not (window.trap_targets or window.strike_targets)
    ):
        events.extend(close_window(state, "answered"))
    return events
