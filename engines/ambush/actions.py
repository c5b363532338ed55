"""Action validation: every check runs before anything changes, then one rules call applies it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from engines.ambush import race, rules
from engines.ambush.cards import CARDS, NEEDS_TARGET
from engines.ambush.grid import (
    COORD_LIMIT,
    Cell,
    is_adjacent,
    is_free,
    parse_cell,
)
from engines.ambush.rules import Ctx
from engines.ambush.state import AmbushState
from engines.base import IllegalAction, InvalidAction, require
from engines.envelope import INT, LIST, STR, STRS, Action, Actions, Field, optional

# What applies a validated action: a rules function and its arguments after (state, ctx). A
# pair rather than a closure: one is made for every action.
Apply = tuple[Callable[..., None], tuple[Any, ...]]


def _field(ok: bool, message: str) -> None:
    require(ok, "ambush/bad_field", message, illegal=False)


def _cell(action: dict[str, Any], key: str) -> Cell:
    value = action.get(key)
    # The usual case (a list of two plain ints in range) without the call to ``parse_cell``:
    # every expose, play, place and grab names a cell.
    if type(value) is list and len(value) == 2:
        x, y = value
        if (
            type(x) is int
            and type(y) is int
            and -COORD_LIMIT <= x <= COORD_LIMIT
            and -COORD_LIMIT <= y <= COORD_LIMIT
        ):
            return (x, y)
    cell = parse_cell(value)
    if cell is None:
        raise InvalidAction("ambush/bad_field", f"{key} must be [x, y] with two integers")
    return cell


class AmbushActions(Actions):
    """The table of Ambush!'s actions (``ACTIONS``)."""

    def seat_count(self, state: AmbushState) -> int:
        return state.seats

    def gate(self, state: AmbushState, seat: int, kind: str) -> None:
        """Before every action: the game runs and the seat's castle is still in it."""
        if state.phase == "over":
            raise IllegalAction("ambush/game_over", "the game is over")
        if not state.alive[seat]:
            raise IllegalAction("ambush/seat_out", "this castle is out of the game")


# The checks below are plain ifs, not ``require`` calls: they run for every turn action.


def _on_turn(state: AmbushState, seat: int, phase: str, step: str | None) -> None:
    if state.turn != seat:
        raise IllegalAction("ambush/not_your_turn", "it is not your turn")
    if state.phase != phase:
        raise IllegalAction("ambush/wrong_step", f"this action needs the {phase} phase")
    if step is not None and state.step != step:
        raise IllegalAction("ambush/wrong_step", f"this action needs the {step} step")


def _placement(state: AmbushState, cell: Cell) -> None:
    blocked = rules.placement_blocked(state)
    if not is_free(state.grid, cell, blocked):
        raise IllegalAction("ambush/cell_not_free", "that cell is taken")
    if not is_adjacent(state.grid, cell):
        raise IllegalAction("ambush/cell_not_adjacent", "not next to a card")


def _expose(state: AmbushState, seat: int, action: dict[str, Any], at_ms: int) -> Apply:
    """Rule 1. Refuses: not_your_turn, wrong_step, cell_not_free, cell_not_adjacent."""
    cell = _cell(action, "cell")
    _on_turn(state, seat, "turn", "expose")
    _placement(state, cell)
    return rules.expose, (seat, cell)


def _play(state: AmbushState, seat: int, action: dict[str, Any], at_ms: int) -> Apply:
    """Rule 2. Refuses: bad_field, not_your_turn, wrong_step, card_not_in_hand, bad_target,
    cell_not_free, cell_not_adjacent, bad_look (Scout), bad_swap (Trickster)."""
    card_id = action.get("card")
    if not (isinstance(card_id, str) and card_id in CARDS):
        raise InvalidAction("ambush/bad_field", f"unknown card {card_id!r}")
    assert isinstance(card_id, str)
    card = CARDS[card_id]
    cell = _cell(action, "cell")
    target = action.get("target")  # a seat or None: the envelope checked it
    look = _cell(action, "look") if action.get("look") is not None else None
    swap: tuple[Cell, Cell] | None = None
    if action.get("swap") is not None:
        pair = action["swap"]
        _field(isinstance(pair, list) and len(pair) == 2, "swap must be two cells")
        a, b = parse_cell(pair[0]), parse_cell(pair[1])
        _field(a is not None and b is not None, "swap must be two [x, y] cells")
        assert a is not None and b is not None
        swap = (a, b)
    if look is not None and card.effect != "look":
        raise InvalidAction("ambush/bad_field", "only a Scout looks")
    if swap is not None and card.effect != "swap":
        raise InvalidAction("ambush/bad_field", "only a Trickster swaps")
    _on_turn(state, seat, "turn", "play")
    if card_id not in state.hands[seat]:
        raise IllegalAction("ambush/card_not_in_hand", "that card is not in hand")
    if NEEDS_TARGET[card_id]:
        if not (
            target is not None
            and 0 <= target < state.seats
            and target != seat
            and state.alive[target]
        ):
            raise IllegalAction("ambush/bad_target", "choose a living opponent")
    elif target is not None:
        raise IllegalAction("ambush/bad_target", "this card names no target")
    _placement(state, cell)
    # The reserved cell is not yet a card: effects act on the cards already down.
    if card.effect == "look":
        if state.grid:
            require(look in state.grid, "ambush/bad_look", "look at a face-down card")
        else:
            require(look is None, "ambush/bad_look", "there is no face-down card to look at")
    if card.effect == "swap":
        if len(state.grid) >= 2:
            require(
                swap is not None
                and swap[0] != swap[1]
                and swap[0] in state.grid
                and swap[1] in state.grid,
                "ambush/bad_swap",
                "swap two different face-down cards",
            )
        else:
            require(swap is None, "ambush/bad_swap", "fewer than two face-down cards")
    return rules.play, (seat, card_id, cell, target, look, swap)


def _place(state: AmbushState, seat: int, action: dict[str, Any], at_ms: int) -> Apply:
    """Elven Archer. Refuses: not_your_turn, wrong_step, cell_not_free, cell_not_adjacent."""
    cell = _cell(action, "cell")
    _on_turn(state, seat, "placing", None)
    _placement(state, cell)
    return rules.place, (seat, cell)


def _pass(state: AmbushState, seat: int, action: dict[str, Any], at_ms: int) -> Apply:
    """Rule 2d. Refuses: not_your_turn, wrong_step (exposing comes first)."""
    _on_turn(state, seat, "turn", "play")
    return rules.pass_turn, (seat,)


def _call(state: AmbushState, seat: int, action: dict[str, Any], at_ms: int) -> Apply:
    """Ambush! rule 2. Refuses: call_refused (placing, race or hand-limit step under way)."""
    require(
        race.can_call(state, seat),
        "ambush/call_refused",
        "no call while cards are being placed, a race runs or hands are over the limit",
    )
    return race.call, (seat, at_ms)


def _grab(state: AmbushState, seat: int, action: dict[str, Any], at_ms: int) -> Apply:
    """Ambush! rule 3, timed on ``at_ms``. Refuses: no_race, before_call, race_over (at or
    after the end), hand_busy (inside the cooldown), empty_cell."""
    cell = _cell(action, "cell")
    running = state.race
    # Checks as plain ifs (no ``require`` call each): grabs are the most frequent action.
    if state.phase != "ambush" or running is None:
        raise IllegalAction("ambush/no_race", "no race")
    if at_ms < running.started_at:
        raise IllegalAction("ambush/before_call", "grabs start at the call")
    table = state.rules
    ends_at = min(
        running.last_grab_at + table.ambush_idle_ms, running.started_at + table.ambush_max_ms
    )  # ``race.race_end_at`` inline
    if at_ms >= ends_at:
        raise IllegalAction("ambush/race_over", "the race has ended")
    if at_ms < running.next_free[seat]:
        raise IllegalAction("ambush/hand_busy", "your hand is still busy")
    if cell not in state.grid:
        raise IllegalAction("ambush/empty_cell", "no card on that cell")
    return race.grab, (seat, cell, at_ms)


def _return(state: AmbushState, seat: int, action: dict[str, Any], at_ms: int) -> Apply:
    """Ambush! rule 5, hand limit. Refuses: bad_field, wrong_step, not_over_limit, bad_return
    (not exactly the owed count, or cards not in the hand)."""
    cards = action["cards"]  # a list of strings: the envelope checked it
    returning = state.returning
    require(state.phase == "returning" and returning is not None, "ambush/wrong_step", "no limit")
    assert returning is not None
    require(seat in returning.owed, "ambush/not_over_limit", "your hand is within the limit")
    owed = returning.owed[seat]
    if len(cards) != owed:
        raise IllegalAction("ambush/bad_return", f"return exactly {owed} cards")
    # The cards must all be in the hand, copies counted: take them off a copy of it.
    rest = list(state.hands[seat])
    for card in cards:
        if card not in rest:
            raise IllegalAction("ambush/bad_return", "those cards are not all in your hand")
        rest.remove(card)
    return race.return_cards, (seat, list(cards))


def _resign(state: AmbushState, seat: int, action: dict[str, Any], at_ms: int) -> Apply:
    return resign, (seat,)


def resign(state: AmbushState, ctx: Ctx, seat: int) -> None:
    """The seat leaves: its cards go into the deck; a turn it was in the middle of ends."""
    was_turn = state.turn == seat
    if was_turn and state.phase == "placing":
        rules.finish_placing(state, ctx, seat)
    rules.eliminate(state, ctx, seat, resigned=True)
    if state.alive.count(True) <= 1:
        return  # the last castle standing has won; ``rules.finish`` ends the game
    if state.phase == "returning" and state.returning is not None and not state.returning.owed:
        race.resume(state, ctx, state.returning.resume_step)
    elif was_turn and state.phase == "turn":
        rules.start_turn(state, ctx, rules.next_living(state, seat))


CELL = "a cell [x, y], two integers from -1000 to 1000"

# The table: each action type, its rules and its fields (``engines.envelope``). Cells are
# checked by ``_cell`` (type and range at once), cards against the deck by the rules.
ACTIONS: Final = AmbushActions(
    "ambush",
    [
        Action("expose", _expose, Field("cell", doc=CELL), doc="expose the deck's top card"),
        Action(
            "play",
            _play,
            Field("card", STR, doc="a card id from the hand"),
            Field("cell", doc=CELL),
            optional("target", INT, "the opponent's seat, for a card naming one", null=True),
            optional("look", doc="Scout: the face-down cell to look at", null=True),
            optional("swap", LIST, "Trickster: the two face-down cells to swap", null=True),
            doc="play a card from the hand face down",
        ),
        Action("place", _place, Field("cell", doc=CELL), doc="put down an Elven Archer card"),
        Action("pass", _pass, doc="play no card this turn"),
        Action("call_ambush", _call, doc="start a grab race"),
        Action("grab", _grab, Field("cell", doc=CELL), doc="grab a face-down card in a race"),
        Action("return", _return, Field("cards", STRS, doc="card ids"), doc="hand limit"),
        Action("resign", _resign, doc="leave the game"),
    ],
)

__all__ = ["ACTIONS", "IllegalAction", "InvalidAction", "resign"]
