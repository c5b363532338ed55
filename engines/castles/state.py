"""The Castles match state: every card instance, the piles, hands, turn and response window."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
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
    # Derived, not serialised: bumped by every change made through the engine (``touch``), so
    # the read-only entry points (views, legal listing) can reuse what they derived from the
    # state as long as it stays unchanged; ``memo`` holds those facts for ``memo_version``.
    version: int = field(default=0, init=False, compare=False, repr=False)
    memo: dict[str, Any] = field(init=False, compare=False, repr=False)
    memo_version: int = field(default=-1, init=False, compare=False, repr=False)
    # Per card id: the fields its public view entry was built from, and that entry (view.py).
    public: list[tuple[tuple[int, ...], dict[str, Any]] | None] = field(
        init=False, compare=False, repr=False
    )

    def __post_init__(self) -> None:
        grouped: dict[str, list[Card]] = {}
        for card in self.cards:
            grouped.setdefault(card.kind, []).append(card)
        self.by_kind = {kind: tuple(cards) for kind, cards in grouped.items()}
        self.memo = {}
        self.public = [None] * len(self.cards)

    @property
    def teams(self) -> bool:
        return self.seats > 2


def touch(state: GameState) -> None:
    """Mark the state changed: facts derived from it before are stale. The engine calls this
    after every ``apply`` and ``tick``; code that edits a state by hand (tests) calls it too."""
    state.version += 1


def memo(state: GameState) -> dict[str, Any]:
    """Facts derived from the state as it is now (the in-play cards, the public part of the
    views), kept until the next ``touch``. Only read-only entry points use it: the rules read
    the state itself, which changes under them during an action."""
    if state.memo_version != state.version:
        state.memo = {}
        state.memo_version = state.version
    return state.memo


def board(state: GameState) -> list[Card]:
    """The cards in play, in id order (shared by this version's views and legal listing; read
    it, never change it)."""
    cached: list[Card] | None = memo(state).get("board")
    if cached is None:
        cached = state.memo["board"] = [card for card in state.cards if card.place == PLAY]
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
