"""Turn flow: setup, drawing, passing the turn, response windows, resignation and the result."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import (
    ALL,
    Event,
    IllegalAction,
    InvalidAction,
    Outcome,
    Rng,
    SeatResult,
    make_event,
)
from engines.castles.board import (
    TERRAINS,
    castle_zone,
    colour_id,
    enemy,
    in_play,
    is_soldier,
    middle_zone,
    seats_of,
    side_of,
)
from engines.castles.cards import CARDS, CASTLE_HP, COLOUR_SET, SHARED_KINDS, shared_deck
from engines.castles.state import HAND, PILE, PLAY, Card, GameState, Window, readied

CODE = "castles/"
HAND_SIZE = 5
START_ZONE = {"castle": "middle", "general": "middle"}  # the rest start in the Castle Zone


def _bad(message: str) -> InvalidAction:
    return InvalidAction(CODE + "bad_option", message)


def _int_option(options: Mapping[str, Any], name: str, default: int, low: int, high: int) -> int:
    value = options.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _bad(f"{name} must be an integer in {low}..{high}")
    return value


def _kinds(raw: Any, name: str) -> list[str]:
    if not isinstance(raw, list) or not all(k in SHARED_KINDS for k in raw):
        raise _bad(f"{name} must list shared card ids")
    return [str(k) for k in raw]


def _piles(seats: int, rng: Rng, options: Mapping[str, Any]) -> list[list[str]]:
    if "deck" in options and "decks" in options:
        raise _bad("give deck or decks, not both")
    if "decks" in options:
        decks = options["decks"]
        if not isinstance(decks, list) or len(decks) != seats:
            raise _bad("decks needs one list per seat")
        return [_kinds(deck, "decks") for deck in decks]
    if "deck" in options:
        return [_kinds(options["deck"], "deck")]
    deck = shared_deck()
    rng.shuffle(deck)
    return [deck]


def _terrain(options: Mapping[str, Any]) -> tuple[list[str], list[int]]:
    terrain = options.get("terrain", ["plains"] * 6)
    if not isinstance(terrain, list) or len(terrain) != 6 or not set(terrain) <= TERRAINS:
        raise _bad(f"terrain lists six of {sorted(TERRAINS)}")
    if terrain[0] != "plains" or terrain[5] != "plains":
        raise _bad("the Castle Zones are always Plains")
    rivers = options.get("rivers", [])
    if not isinstance(rivers, list) or not all(type(r) is int and 0 <= r <= 4 for r in rivers):
        raise _bad("rivers lists zone boundaries 0..4")
    return [str(t) for t in terrain], sorted(set(rivers))


def setup(seats: int, seed: int, options: Mapping[str, Any]) -> tuple[GameState, list[Event]]:
    """A new match: both Castles and Generals in their Middle Zones, Wizard, Spy and Assassin in
    the Castle Zones, five cards dealt (seat 0 first), the first seat to move (Red by default).

    Raises ``InvalidAction`` castles/bad_seats or castles/bad_option.
    """
    if isinstance(seats, bool) or not 2 <= seats <= 4:
        raise InvalidAction(CODE + "bad_seats", "Castles is played by 2 seats or 2 teams (3-4)")
    if "teams" in options and options["teams"] is not (seats > 2):
        raise _bad("teams is true exactly when 3 or 4 seats play (seat s plays for side s % 2)")
    first = _int_option(options, "first_seat", 0, 0, seats - 1)
    response_ms = _int_option(options, "response_ms", 4000, 0, 120_000)
    max_turns = _int_option(options, "max_turns", 200, 2, 10_000)
    names = options.get(
        "names", [f"Castle {'Red' if s % 2 == 0 else 'Blue'} {s + 1}" for s in range(seats)]
    )
    if (
        not isinstance(names, list)
        or len(names) != seats
        or not all(isinstance(n, str) for n in names)
    ):
        raise _bad("names needs one string per seat")
    prompts = options.get("trap_prompts", True)
    if not isinstance(prompts, bool):
        raise _bad("trap_prompts is true or false")
    terrain, rivers = _terrain(options)
    rng = Rng(seed)
    cards: list[Card] = []
    for side in (0, 1):
        for kind in COLOUR_SET:
            zone = middle_zone(side) if kind in START_ZONE else castle_zone(side)
            cards.append(Card(len(cards), kind, PLAY, side=side, zone=zone, hp=CARDS[kind].hp))
    piles: list[list[int]] = []
    for index, kinds in enumerate(_piles(seats, rng, options)):
        pile = []
        for kind in kinds:
            cards.append(Card(len(cards), kind, PILE, holder=index))
            pile.append(len(cards) - 1)
        piles.append(pile)
    rotation = [0, 0]
    first_side = side_of(first)
    rotation[first_side] = seats_of_count(seats, first_side).index(first) + 1
    state = GameState(
        seats=seats,
        cards=cards,
        piles=piles,
        hands=[[] for _ in range(seats)],
        discard=[],
        rng=rng,
        names=list(names),
        terrain=terrain,
        rivers=rivers,
        response_ms=response_ms,
        max_turns=max_turns,
        first_seat=first,
        active=first,
        rotation=rotation,
        prompts_off=[not prompts] * seats,
        resigned=[False] * seats,
    )
    events = [make_event("setup", seats=seats, first_seat=first)]
    for seat in range(seats):
        for _ in range(HAND_SIZE):
            events.extend(draw(state, seat))
    events.extend(start_turn(state, first, draw_card=False))
    return state, events


def seats_of_count(seats: int, side: int) -> list[int]:
    return [seat for seat in range(seats) if seat % 2 == side]


def draw(state: GameState, seat: int) -> list[Event]:
    """Draw the top card of the seat's pile (the shared one, or its own); empty: no draw."""
    pile = state.piles[seat if len(state.piles) > 1 else 0]
    if not pile:
        return []
    card = state.cards[pile.pop(0)]
    card.place, card.holder = HAND, seat
    state.hands[seat].append(card.id)
    return [
        make_event(
            "drew",
            visible_to=[seat],
            redacted={"seat": seat, "count": 1},
            seat=seat,
            count=1,
            card={"id": card.id, "kind": card.kind},
        )
    ]


def start_turn(state: GameState, seat: int, *, draw_card: bool = True) -> list[Event]:
    """The seat's side readies every card (one move, one Action each), then the seat draws."""
    state.active = seat
    state.phase = "turn"
    side = side_of(seat)
    for card in in_play(state):
        if card.side == side and (card.moves != 1 or card.acts != 1):  # unchanged: kept entry
            card.moves = card.acts = 1
            readied(state, card)
    events = [{"type": "turn_started", "seat": seat, "turn": state.turn, "visible_to": ALL}]
    return events + (draw(state, seat) if draw_card else [])


def end_turn(state: GameState) -> list[Event]:
    """Close the turn: Charge and Ambush lapse; the other side moves (partners alternate)."""
    seat = state.active
    side = side_of(seat)
    for card in in_play(state):
        if card.side == side:
            if card.moves or card.acts or card.charged:  # an unchanged card keeps its entry
                card.moves = card.acts = 0
                card.charged = False
                readied(state, card)
        elif card.charged:
            card.charged = False
            readied(state, card)
    state.ambush = False
    events = [{"type": "turn_ended", "seat": seat, "visible_to": ALL}]
    if state.turn >= state.max_turns:
        return events + finish(state, None, "turn_limit")
    state.turn += 1
    side = enemy(side)
    partners = seats_of(state, side)
    nxt = partners[state.rotation[side] % len(partners)]
    state.rotation[side] += 1
    return events + start_turn(state, nxt)


def finish(state: GameState, winner_side: int | None, reason: str) -> list[Event]:
    """End the match. At the turn limit (house rule) the Castle with more HP left wins."""
    if reason == "turn_limit":
        hp = [state.cards[colour_id(side, "castle")].hp for side in (0, 1)]
        winner_side = None if hp[0] == hp[1] else (0 if hp[0] > hp[1] else 1)
    state.phase = "over"
    state.window = None
    state.winner_side = winner_side
    state.end_reason = reason
    return [make_event("game_over", winner_side=winner_side, reason=reason)]


def settle(state: GameState) -> list[Event]:
    """After any change: a destroyed Castle ends the match."""
    if state.phase != "over" and state.end_reason == "castle_destroyed":
        return finish(state, state.winner_side, "castle_destroyed")
    return []


def resign(state: GameState, seat: int) -> list[Event]:
    """A seat concedes for its whole side (partners share one Castle)."""
    if state.phase == "over":
        raise IllegalAction(CODE + "game_over", "the match is over")
    state.resigned[seat] = True
    events = [make_event("resigned", seat=seat)]
    return events + finish(state, enemy(side_of(seat)), "resigned")


def open_window(state: GameState, traps: list[int], strikes: list[int], at_ms: int) -> list[Event]:
    """After a move: the defenders get a window of ``response_ms``.

    A Trap window opens for every entry into their Middle Zone whether or not they hold a Trap,
    so its opening and length tell nothing; only seats that switched Trap prompts off are
    skipped. Opportunity strikes (River, High Hills) open it when the defenders have Soldiers.
    """
    if not traps and not strikes:
        return []
    side = enemy(side_of(state.active))
    armed = any(c.side == side and is_soldier(c) for c in in_play(state))
    responders = [
        seat
        for seat in seats_of(state, side)
        if (traps and not state.prompts_off[seat]) or (strikes and armed)
    ]
    if not responders:
        return []
    state.window = Window(
        side, traps, strikes if armed else [], responders, [], at_ms + state.response_ms
    )
    state.phase = "response"
    return [
        make_event(
            "window_opened",
            seats=responders,
            entered=traps,
            crossing=state.window.strike_targets,
            deadline=state.window.deadline,
        )
    ]


def close_window(state: GameState, reason: str) -> list[Event]:
    state.window = None
    state.phase = "turn"
    return [make_event("window_closed", reason=reason)]


def outcome(state: GameState) -> Outcome | None:
    """Castle destroyed or resignation; damage = Castle HP lost / 50 for every seat of a side."""
    if state.phase != "over":
        return None
    winners = [] if state.winner_side is None else seats_of(state, state.winner_side)
    losers = [s for s in range(state.seats) if s not in winners]
    placings = [winners, losers] if winners else [losers]
    results: dict[int, SeatResult] = {}
    for seat in range(state.seats):
        side = side_of(seat)
        castle = state.cards[colour_id(side, "castle")]
        lost = side != state.winner_side and state.winner_side is not None
        results[seat] = SeatResult(
            destroyed=castle.place != PLAY,
            resigned=lost and state.end_reason == "resigned",
            damage=min(1.0, max(0.0, (CASTLE_HP - castle.hp) / CASTLE_HP)),
        )
    return Outcome(placings, results, state.end_reason)
