"""Ember's actions: the table (``engines.envelope``) and the rules each action type runs."""

from __future__ import annotations

from typing import Any, Final

from engines.base import Event, IllegalAction, InvalidAction, make_event, require
from engines.ember import stack, turns
from engines.ember.cards import HERO_IDS
from engines.ember.effects import shown
from engines.ember.state import HAND_LIMIT, EmberState
from engines.ember.targeting import has_room, play_options, response_options
from engines.envelope import INT, STR, Action, Actions, Field, optional

GAME = "ember"
DECLARED = ("target_seat", "target_card", "choice")
MAX_SEATS = 4
# ``to_act`` is asked several times per change (host, listing, apply, views): one set per
# seat, built once.
ALONE = tuple(frozenset({seat}) for seat in range(MAX_SEATS))


def to_act(state: EmberState) -> frozenset[int]:
    """Every seat that may act now: the hero chooser, the seat a window waits for, or the
    seat on turn."""
    if state.phase == "over":
        return frozenset()
    if state.phase == "hero":
        return frozenset(state.choosing[:1])
    if state.window is not None:
        return ALONE[state.window["seat"]]
    return ALONE[state.turn]


class EmberActions(Actions):
    """The table of Ember's actions (``ACTIONS``)."""

    def gate(self, state: EmberState, seat: int, kind: str) -> None:
        """Before every action: the game runs, the seat plays on and (but to resign) may act."""
        if state.phase == "over":
            raise IllegalAction(f"{GAME}/game_over", "the game is over")
        if state.players[seat].resigned:
            raise IllegalAction(f"{GAME}/resigned", "you have resigned")
        if kind != "resign" and seat not in to_act(state):
            raise IllegalAction(f"{GAME}/not_your_turn", "not your move")


def _phase(state: EmberState, *phases: str) -> None:
    require(state.phase in phases, f"{GAME}/wrong_phase", f"not now ({state.phase})")


def _declared(action: dict[str, Any]) -> dict[str, Any]:
    """The target and choice an action declares (the envelope checked they are integers)."""
    return {name: action[name] for name in DECLARED if action.get(name) is not None}


def _hero(state: EmberState, seat: int, action: dict[str, Any], at: int) -> list[Event]:
    _phase(state, "hero")
    hero = action["hero"]
    if hero not in HERO_IDS:
        raise InvalidAction(f"{GAME}/unknown_hero", f"heroes: {', '.join(HERO_IDS)}")
    require(all(p.hero != hero for p in state.players), f"{GAME}/hero_taken", "taken")
    state.players[seat].hero = hero
    state.choosing.pop(0)
    events = [make_event("hero_chosen", seat=seat, hero=hero)]
    if not state.choosing:
        turns.deal(state, events)
    return events


def _pass(state: EmberState, seat: int, action: dict[str, Any], at: int) -> list[Event]:
    events: list[Event] = []
    if state.window is not None:
        stack.close_window(state, "pass", events)
        turns.after_stack(state, events, at)
        return events
    _phase(state, "mode")
    require(
        bool(state.players[seat].mode_pile),
        f"{GAME}/must_choose_mode",
        "an empty mode pile needs a mode card",
    )
    events.append(make_event("mode_kept", seat=seat))
    turns.draw_phase(state, events, at)
    return events


def _mode(state: EmberState, seat: int, action: dict[str, Any], at: int) -> list[Event]:
    uid: int = action["card"]
    _phase(state, "mode")
    player = state.players[seat]
    require(uid in player.hand, f"{GAME}/not_in_hand", "that card is not in your hand")
    player.hand.remove(uid)
    player.mode_pile.append(uid)
    events = [make_event("mode_set", seat=seat, forced=False, **shown(state, uid))]
    turns.draw_phase(state, events, at)
    return events


def _play(state: EmberState, seat: int, action: dict[str, Any], at: int) -> list[Event]:
    uid: int = action["card"]
    declared = _declared(action)
    _phase(state, "play")
    require(uid in state.players[seat].hand, f"{GAME}/not_in_hand", "not in your hand")
    require(has_room(state, seat, uid), f"{GAME}/no_room", "your emberscape is full")
    require(
        declared in play_options(state, seat, uid),
        f"{GAME}/bad_target",
        "declare one legal target (and choice) for this card",
    )
    state.resume = "play"
    events: list[Event] = []
    if stack.play_card(state, seat, uid, declared, at, events):
        turns.after_stack(state, events, at)
    return events


def _arcane(state: EmberState, seat: int, action: dict[str, Any], at: int) -> list[Event]:
    declared = _declared(action)
    _phase(state, "arcane")
    uid = state.players[seat].arcane[0]
    require(
        declared in play_options(state, seat, uid, from_arcane=True),
        f"{GAME}/bad_target",
        "declare one legal target (and choice) for this card",
    )
    events: list[Event] = []
    if stack.play_card(state, seat, uid, declared, at, events, from_arcane=True):
        turns.after_stack(state, events, at)
    return events


def _respond(state: EmberState, seat: int, action: dict[str, Any], at: int) -> list[Event]:
    uid: int = action["card"]
    _phase(state, "respond")
    require(
        uid in response_options(state, seat),
        f"{GAME}/not_a_response",
        "that card cannot answer this",
    )
    events: list[Event] = []
    if stack.respond(state, seat, uid, at, events):
        turns.after_stack(state, events, at)
    return events


def _discard(state: EmberState, seat: int, action: dict[str, Any], at: int) -> list[Event]:
    uid: int = action["card"]
    _phase(state, "discard")
    player = state.players[seat]
    require(uid in player.hand, f"{GAME}/not_in_hand", "not in your hand")
    player.hand.remove(uid)
    player.discard.append(uid)
    events = [make_event("discarded", seat=seat, **shown(state, uid))]
    if len(player.hand) <= HAND_LIMIT:
        turns.finish_turn(state, events, at)
    return events


def _resign(state: EmberState, seat: int, action: dict[str, Any], at: int) -> list[Event]:
    """Resign: the seat leaves play; its cards stay where they are, untouchable."""
    state.players[seat].resigned = True
    state.resigned_order.append(seat)
    events = [make_event("resigned", seat=seat)]
    if len(state.active()) <= 1:
        turns.end_game(state, "resign", events)
    elif state.phase == "hero":
        state.choosing.remove(seat)
        if not state.choosing:
            turns.deal(state, events)
    elif state.window is not None:
        if state.window["seat"] == seat:
            stack.close_window(state, "resigned", events)
            turns.after_stack(state, events, at)
    elif seat == state.turn:
        state.resume = None
        turns.next_turn(state, events, at)
    return events


CARD = "a card uid from the seat's hand"
TARGETS = (
    optional("target_seat", INT, "the seat the card aims at", null=True),
    optional("target_card", INT, "the card uid it aims at", null=True),
    optional("choice", INT, "the option chosen, for a card that offers one", null=True),
)
# The table: each action type, its rules and its fields.
ACTIONS: Final = EmberActions(
    GAME,
    [
        Action("hero", _hero, Field("hero", STR, doc="a hero id"), doc="choose a hero"),
        Action("pass", _pass, doc="keep the mode card, or let a response window go by"),
        Action("mode", _mode, Field("card", INT, doc=CARD), doc="set a mode card"),
        Action("play", _play, Field("card", INT, doc=CARD), *TARGETS, doc="play a card"),
        Action("arcane", _arcane, *TARGETS, doc="play the arcane card"),
        Action("respond", _respond, Field("card", INT, doc=CARD), doc="answer with a card"),
        Action("discard", _discard, Field("card", INT, doc=CARD), doc="discard to the limit"),
        Action("resign", _resign, doc="leave the game"),
    ],
)
