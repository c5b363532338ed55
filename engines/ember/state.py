"""The Ember match state: per-seat zones of card uids, turn and phase, the response stack."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engines.base import Rng
from engines.ember.cards import CARDS, Card
from engines.ember.seen import Seen

HAND_LIMIT = 9
SCAPE_SIZE = 5
ARCANE_COUNT = 4
OPENING_HAND = 5

ZONES = ("deck", "hand", "arcane", "scape", "mode_pile", "collection", "discard")
# EmberState fields kept for speed only: not part of the match, not serialised.
DERIVED = frozenset({"seen", "shared", "version", "seen_version"})


@dataclass
class Player:
    """One seat's areas. Lists of card uids; ``deck`` and ``arcane`` top first, piles top last."""

    hero: str | None
    name: str
    deck: list[int] = field(default_factory=list)
    hand: list[int] = field(default_factory=list)
    arcane: list[int] = field(default_factory=list)
    scape: list[int] = field(default_factory=list)
    face_down: list[int] = field(default_factory=list)
    mode_pile: list[int] = field(default_factory=list)
    collection: list[int] = field(default_factory=list)
    hidden_collected: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    resigned: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            name: list(value) if isinstance(value, list) else value
            for name, value in self.__dict__.items()
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Player:
        player = cls(hero=data["hero"], name=str(data["name"]))
        for name, value in data.items():
            setattr(player, name, list(value) if isinstance(value, list) else value)
        return player


@dataclass
class EmberState:
    """The whole match. ``kinds[uid]`` is a card's id, ``owners[uid]`` the deck it came from.

    ``stack`` holds the played card and the responses answering it (last = top); each item is
    ``{"role": "card"|"response", "seat", "uid", "target_seat", "target_card", "choice",
    "answers", "cancelled", "stopped", "removed", "zone"}``. ``window`` is the open response
    window ``{"seat", "opened_ms"}``. ``resume`` says where the turn goes once the stack is
    empty: ``"play"`` (after the play phase card), ``"collection"`` or ``"attack"`` (after an
    arcane card earned in the collection phase or by an attack-mode collection).
    """

    seats: int
    players: list[Player]
    rng: Rng
    first_seat: int
    response_ms: int
    max_rounds: int
    stacked: list[list[str]] | None = None
    kinds: list[str] = field(default_factory=list)
    owners: list[int] = field(default_factory=list)
    phase: str = "hero"
    turn: int = 0
    round: int = 1
    turns: int = 0
    stack: list[dict[str, Any]] = field(default_factory=list)
    window: dict[str, int] | None = None
    resume: str | None = None
    choosing: list[int] = field(default_factory=list)
    resigned_order: list[int] = field(default_factory=list)
    reason: str | None = None
    # Derived, not serialised: per seat, the view parts last built and the facts they show
    # (``seen.Seen``), so views after a change rebuild only the players it touched, and the
    # view parts every seat shares (``view.refresh``); both were last brought up to date at
    # ``seen_version``. ``version`` is bumped by every ``apply`` and ``tick`` (and by
    # ``touched``), so the views after one change (one per seat) do that once, not per view.
    seen: list[Seen] = field(default_factory=list, init=False, compare=False, repr=False)
    shared: dict[str, Any] = field(default_factory=dict, init=False, compare=False, repr=False)
    version: int = field(default=0, init=False, compare=False, repr=False)
    seen_version: int = field(default=-1, init=False, compare=False, repr=False)

    def card(self, uid: int) -> Card:
        return CARDS[self.kinds[uid]]

    def active(self) -> list[int]:
        """Seats still in play, in seat order."""
        return [s for s, p in enumerate(self.players) if not p.resigned]

    def to_json(self) -> dict[str, Any]:
        data = {name: value for name, value in self.__dict__.items() if name not in DERIVED}
        data["players"] = [p.to_json() for p in self.players]
        data["rng"] = self.rng.to_json()
        data["stack"] = [dict(item) for item in self.stack]
        data["window"] = dict(self.window) if self.window is not None else None
        data["kinds"] = list(self.kinds)
        data["owners"] = list(self.owners)
        data["choosing"] = list(self.choosing)
        data["resigned_order"] = list(self.resigned_order)
        data["stacked"] = [list(d) for d in self.stacked] if self.stacked is not None else None
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> EmberState:
        state = cls(
            seats=int(data["seats"]),
            players=[Player.from_json(p) for p in data["players"]],
            rng=Rng.from_json(data["rng"]),
            first_seat=int(data["first_seat"]),
            response_ms=int(data["response_ms"]),
            max_rounds=int(data["max_rounds"]),
        )
        for name in ("phase", "turn", "round", "turns", "resume", "reason"):
            setattr(state, name, data[name])
        state.stacked = [list(d) for d in data["stacked"]] if data["stacked"] is not None else None
        state.kinds = list(data["kinds"])
        state.owners = list(data["owners"])
        state.stack = [dict(item) for item in data["stack"]]
        state.window = dict(data["window"]) if data["window"] is not None else None
        state.choosing = list(data["choosing"])
        state.resigned_order = list(data["resigned_order"])
        return state


def mode_of(state: EmberState, seat: int) -> str | None:
    """The mode symbol of the seat's mode card (top of its mode pile), None while it is empty."""
    pile = state.players[seat].mode_pile
    return state.card(pile[-1]).mode if pile else None


def lasting_count(state: EmberState, seat: int, kind: str) -> int:
    """How many face-up lasting cards of ``kind`` sit in the seat's emberscape."""
    player = state.players[seat]
    kinds = state.kinds
    count = 0
    for uid in player.scape:
        # Asked in every draw phase and attack listing; lasting cards are few, so test that first.
        if CARDS[kinds[uid]].lasting == kind and uid not in player.face_down:
            count += 1
    return count


def stones(state: EmberState, uids: list[int]) -> int:
    kinds = state.kinds
    return sum(CARDS[kinds[uid]].stones for uid in uids)


def touched(state: EmberState) -> None:
    """The state was changed outside ``apply``/``tick`` (tests building a position): the
    views check every player's facts again."""
    state.version += 1
