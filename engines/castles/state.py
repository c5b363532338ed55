"""The Castles match state: every card instance, the piles, hands, turn and response window."""

from __future__ import annotations

from bisect import bisect
from collections.abc import Mapping
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from engines.base import Rng

PILE, HAND, PLAY, DISCARD = "pile", "hand", "play", "discard"


@dataclass(slots=True)  # slots: the rules and views read card fields thousands of times a game
class Card:
    """One physical card. ``side`` is its owner once in play (colour cards always have one)."""

    id: int
    kind: str
    place: str
    holder: int = -1  # the seat whose hand holds it, or the pile index
    side: int = -1
    zone: int = -1
    hp: int = 0
    moves: int = 0  # moves left this turn
    acts: int = 0  # Actions left this turn
    charged: bool = False  # Charge: two zones forwards and +1 damage this turn
    seen_by: list[int] = field(default_factory=list)  # sides a Spy showed it to, in hand


@dataclass(slots=True)
class Window:
    """A response window in the mover's turn: Trap (and, with terrain, opportunity strikes)."""

    side: int  # the defending side
    trap_targets: list[int]
    strike_targets: list[int]
    responders: list[int]  # seats that have not passed yet
    struck: list[int]  # defending Soldiers that already struck in this window
    deadline: int


@dataclass
class GameState:
    """Everything a Castles match needs; ``to_json``/``from_json`` round-trip it exactly."""

    seats: int
    cards: list[Card]
    piles: list[list[int]]
    hands: list[list[int]]
    discard: list[int]
    rng: Rng
    names: list[str]
    terrain: list[str]
    rivers: list[int]
    response_ms: int
    max_turns: int
    first_seat: int
    active: int
    rotation: list[int]  # per side: index into its seats of the next partner to move
    turn: int = 1
    phase: str = "turn"  # "turn", "response" or "over"
    window: Window | None = None
    ambush: bool = False  # the active side played Ambush this turn
    prompts_off: list[bool] = field(default_factory=list)
    resigned: list[bool] = field(default_factory=list)
    winner_side: int | None = None
    end_reason: str = ""
    # Derived, not serialised: the cards of each kind. A card's kind never changes, so this
    # stays true for the whole match and lets "has X in play" look at 2-12 cards, not all 80.
    by_kind: dict[str, tuple[Card, ...]] = field(init=False, compare=False, repr=False)
    # Derived, not serialised: bumped by every change (``changed``, ``touch``), so the views
    # can reuse what they derived from the state as long as it stays unchanged; ``memo`` holds
    # those facts for ``memo_version``.
    version: int = field(default=0, init=False, compare=False, repr=False)
    memo: dict[str, Any] = field(init=False, compare=False, repr=False)
    memo_version: int = field(default=-1, init=False, compare=False, repr=False)
    # Per card id: its public view entry (view.py), dropped by ``edited`` (``hurt``,
    # ``readied``) when the rules change one of its fields.
    public: list[dict[str, Any] | None] = field(init=False, compare=False, repr=False)
    # Other parts of the views (zones, discard, each hand) with the state lists they were built
    # from: reused while those compare equal (view.py).
    parts: dict[Any, tuple[Any, ...]] = field(init=False, compare=False, repr=False)
    # The cards in play (``board``), kept across changes: only ``enter_play`` and ``destroy``
    # move a card into or out of play, and they replace it (``board_changed``); ``touch`` drops
    # it.
    in_play: list[Card] | None = field(default=None, init=False, compare=False, repr=False)
    # Per card id: its last listed moves and Actions with the facts they were listed from
    # (legal.py; a Catapult's or Cannon's carried moves too); an action dict is data, never
    # changed once listed.
    listed: tuple[list[Any], list[Any]] = field(init=False, compare=False, repr=False)
    # Per card id: ``{"id", "kind"}``, as views list hands, the discard and known cards (one
    # dict per card, shared by every view: never changed once built).
    named: list[dict[str, Any]] = field(init=False, compare=False, repr=False)
    # Per side: the board (``in_play``) and that side's cards in it, in id order (legal.py).
    mine: list[tuple[list[Card], list[Card]] | None] = field(
        default_factory=lambda: [None, None], init=False, compare=False, repr=False
    )
    # Per side: bumped whenever a card of that side enters or leaves play or changes zone or
    # side (``edited``; not for HP, ``hurt``, nor moves, Actions and Charge, ``readied``).
    # ``wounds``: bumped by every change of HP (``hurt``). The targets of Actions depend on
    # nothing else of the board.
    placed: list[int] = field(default_factory=lambda: [0, 0], init=False, compare=False, repr=False)
    wounds: int = field(default=0, init=False, compare=False, repr=False)
    # Per side, by actor kind and zone: the targets last listed, with the ``placed`` counts
    # they were worked out at (legal.py); and the requirement refusals and choices of Action
    # cards (legal_plays.py).
    targets: tuple[dict[Any, Any], dict[Any, Any]] = field(init=False, compare=False, repr=False)
    # Bumped by every Spy reveal (and ``touch``): the known cards of a view are worked out again
    # only when it or an enemy hand changed, and never while it is 0 (view.py).
    reveals: int = field(default=0, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        # The ``init=False`` fields with defaults are set here as well: a compiled (mypyc)
        # dataclass leaves them unset.
        self.version, self.memo_version, self.in_play = 0, -1, None
        self.mine, self.placed, self.wounds = [None, None], [0, 0], 0
        grouped: dict[str, list[Card]] = {}
        for card in self.cards:
            grouped.setdefault(card.kind, []).append(card)
        self.by_kind = {kind: tuple(cards) for kind, cards in grouped.items()}
        self.memo = {}
        self.public = [None] * len(self.cards)
        self.parts = {}
        self.listed = ([None] * len(self.cards), [None] * len(self.cards))
        self.targets = ({}, {})
        self.named = [{"id": card.id, "kind": card.kind} for card in self.cards]
        # A state read from JSON may hold revealed cards already: the views look for them.
        self.reveals = int(any(card.seen_by for card in self.cards))

    @property
    def teams(self) -> bool:
        return self.seats > 2


CARD_ID = attrgetter("id")  # bisect key: the board is in id order


def touch(state: GameState) -> None:
    """Mark a state edited by hand (tests): every fact derived from it before is stale, even
    those the rules keep up to date themselves (the cards in play, each card's view entry,
    the listed targets, the Spy reveal count). The engine's own changes call ``changed``."""
    changed(state)
    state.in_play = None
    state.public = [None] * len(state.cards)
    state.targets = ({}, {})  # the terrain may have been edited too
    state.reveals += 1


def changed(state: GameState) -> None:
    """After every ``apply`` and ``tick``: the views and listings derived from the state before
    are stale (``memo`` starts afresh)."""
    state.version += 1


def edited(state: GameState, card: Card) -> None:
    """The rules changed a public field of ``card`` (side, zone, hp, moves, acts, charged):
    its view entry is built afresh (view.py); every such change calls this (or ``readied``),
    with ``card.side`` the side it is in play for. The targets listed for its side's enemies
    (and for its own Wizard, Mason and Medic) are worked out again."""
    state.public[card.id] = None
    state.placed[card.side] += 1


def hurt(state: GameState, card: Card) -> None:
    """``edited`` for a change of ``card``'s HP only (damage, healing): only the targets of the
    Mason and Medic depend on it."""
    state.public[card.id] = None
    state.wounds += 1


def readied(state: GameState, card: Card) -> None:
    """``edited`` for a change of ``card``'s moves, Actions or Charge only: no target of any
    Action depends on them, so the listed targets stand."""
    state.public[card.id] = None


def board_changed(state: GameState, card: Card) -> None:
    """``card`` entered or left play (``enter_play``, ``destroy``; its ``place`` is set): the
    board becomes a new list with it put in (in id order) or taken out. A new list, not the
    kept one changed: views and listings handed out share it."""
    kept = state.in_play
    if kept is None:
        return  # ``board`` reads all the cards when next asked
    if card.place == PLAY:
        at = bisect(kept, card.id, key=CARD_ID)
        state.in_play = [*kept[:at], card, *kept[at:]]
    else:
        state.in_play = [other for other in kept if other is not card]


def memo(state: GameState) -> dict[str, Any]:
    """Facts derived from the state as it is now (the spectator view every view is copied
    from), kept until the next ``changed`` or ``touch``. Only read-only entry points use it:
    the rules read the state itself, which changes under them during an action."""
    if state.memo_version != state.version:
        state.memo = {}
        state.memo_version = state.version
    return state.memo


def board(state: GameState) -> list[Card]:
    """The cards in play, in id order (shared by the views and listings until a card enters
    or leaves play; read it, never change it: a change of the board makes a new list)."""
    cached = state.in_play
    if cached is None:
        cached = state.in_play = [card for card in state.cards if card.place == PLAY]
    return cached


CARD_FIELDS = ("id", "kind", "place", "holder", "side", "zone", "hp", "moves", "acts", "charged")


def to_json(state: GameState) -> dict[str, Any]:
    """The complete state, RNG included, as plain JSON data (written out by hand: ``asdict``
    is too slow for the contract checks that snapshot the state after many steps)."""
    window = state.window
    return {
        "seats": state.seats,
        "cards": [
            {
                **{name: getattr(card, name) for name in CARD_FIELDS},
                "seen_by": list(card.seen_by),
            }
            for card in state.cards
        ],
        "piles": [list(pile) for pile in state.piles],
        "hands": [list(hand) for hand in state.hands],
        "discard": list(state.discard),
        "rng": state.rng.to_json(),
        "names": list(state.names),
        "terrain": list(state.terrain),
        "rivers": list(state.rivers),
        "response_ms": state.response_ms,
        "max_turns": state.max_turns,
        "first_seat": state.first_seat,
        "active": state.active,
        "rotation": list(state.rotation),
        "turn": state.turn,
        "phase": state.phase,
        "window": None
        if window is None
        else {
            "side": window.side,
            "trap_targets": list(window.trap_targets),
            "strike_targets": list(window.strike_targets),
            "responders": list(window.responders),
            "struck": list(window.struck),
            "deadline": window.deadline,
        },
        "ambush": state.ambush,
        "prompts_off": list(state.prompts_off),
        "resigned": list(state.resigned),
        "winner_side": state.winner_side,
        "end_reason": state.end_reason,
    }


def from_json(data: Mapping[str, Any]) -> GameState:
    """The inverse of ``to_json``."""
    raw = dict(data)
    window = raw.pop("window")
    cards = [Card(**{**card, "seen_by": list(card["seen_by"])}) for card in raw.pop("cards")]
    return GameState(
        **{
            **raw,
            "cards": cards,
            "rng": Rng.from_json(raw["rng"]),
            "piles": [list(p) for p in raw["piles"]],
            "hands": [list(h) for h in raw["hands"]],
            "discard": list(raw["discard"]),
            "names": list(raw["names"]),
            "terrain": list(raw["terrain"]),
            "rivers": list(raw["rivers"]),
            "rotation": list(raw["rotation"]),
            "prompts_off": list(raw["prompts_off"]),
            "resigned": list(raw["resigned"]),
            "window": None if window is None else _window(window),
        }
    )


def _window(data: Mapping[str, Any]) -> Window:
    return Window(
        side=int(data["side"]),
        trap_targets=list(data["trap_targets"]),
        strike_targets=list(data["strike_targets"]),
        responders=list(data["responders"]),
        struck=list(data["struck"]),
        deadline=int(data["deadline"]),
    )
