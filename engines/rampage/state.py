"""The Castle Rampage match state: piles, hands, stacks, turn bookkeeping and JSON form."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from engines.base import Rng

SETUP: Final = "setup"
PLAY: Final = "play"
OVER: Final = "over"


@dataclass
class Player:
    """One seat's cards. Stacks are listed top first; ``placed``/``lost`` feed ``damage``."""

    name: str
    hand: list[str] = field(default_factory=list)
    gate: list[str] = field(default_factory=list)
    castle: list[str] = field(default_factory=list)
    permanents: list[str] = field(default_factory=list)
    dealt: list[str] = field(default_factory=list)  # this setup round's five cards
    aside: list[str] = field(default_factory=list)  # set aside at setup: the starting hand
    chosen: bool = False  # has split this setup round's cards
    placed: int = 0  # cards ever placed into Gate and Castle
    lost: int = 0  # structure cards destroyed
    resigned: bool = False

    def stack(self, structure: str) -> list[str]:
        return self.gate if structure == "gate" else self.castle

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "hand": list(self.hand),
            "gate": list(self.gate),
            "castle": list(self.castle),
            "permanents": list(self.permanents),
            "dealt": list(self.dealt),
            "aside": list(self.aside),
            "chosen": self.chosen,
            "placed": self.placed,
            "lost": self.lost,
            "resigned": self.resigned,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Player:
        return cls(
            name=str(data["name"]),
            hand=list(data["hand"]),
            gate=list(data["gate"]),
            castle=list(data["castle"]),
            permanents=list(data["permanents"]),
            dealt=list(data["dealt"]),
            aside=list(data["aside"]),
            chosen=bool(data["chosen"]),
            placed=int(data["placed"]),
            lost=int(data["lost"]),
            resigned=bool(data["resigned"]),
        )


@dataclass
class RampageState:
    """The whole match. ``draw`` is top first; ``discard`` is bottom first (top last)."""

    rng: Rng
    players: list[Player]
    first_seat: int
    phase: str = SETUP
    setup_round: int = 1
    active: int = 0
    turn: int = 0  # turns started so far, both players counted
    defended: bool = False  # the one defence placement of this turn is used
    veteran_played: bool = False  # a Veteran was played this turn (house rule: once a turn)
    draw: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    reshuffles: int = 0
    loser: int | None = None
    reason: str | None = None
    # Derived, not serialised: ``RampageEngine.apply`` bumps ``version`` on every call, so the
    # seats' views of one change share a single public part (``view.public_part``). Code
    # that changes a state by hand (test surgery) bumps it too.
    version: int = field(default=0, init=False, compare=False, repr=False)
    public_memo: tuple[int, list[dict[str, Any]], list[str]] | None = field(
        default=None, init=False, compare=False, repr=False
    )

    def __post_init__(self) -> None:
        # Set here as well: a compiled (mypyc) dataclass leaves ``init=False`` fields unset.
        self.version = 0
        self.public_memo = None

    @property
    def seats(self) -> int:
        return len(self.players)

    def opponent(self, seat: int) -> int:
        return 1 - seat

    def all_cards(self) -> Iterator[str]:
        """Every card id in the match, wherever it lies (for conservation checks)."""
        yield from self.draw
        yield from self.discard
        for player in self.players:
            yield from player.hand
            yield from player.gate
            yield from player.castle
            yield from player.permanents
            yield from player.dealt
            yield from player.aside

    def to_json(self) -> dict[str, Any]:
        return {
            "rng": self.rng.to_json(),
            "players": [player.to_json() for player in self.players],
            "first_seat": self.first_seat,
            "phase": self.phase,
            "setup_round": self.setup_round,
            "active": self.active,
            "turn": self.turn,
            "defended": self.defended,
            "veteran_played": self.veteran_played,
            "draw": list(self.draw),
            "discard": list(self.discard),
            "reshuffles": self.reshuffles,
            "loser": self.loser,
            "reason": self.reason,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RampageState:
        loser = data["loser"]
        reason = data["reason"]
        return cls(
            rng=Rng.from_json(data["rng"]),
            players=[Player.from_json(p) for p in data["players"]],
            first_seat=int(data["first_seat"]),
            phase=str(data["phase"]),
            setup_round=int(data["setup_round"]),
            active=int(data["active"]),
            turn=int(data["turn"]),
            defended=bool(data["defended"]),
            # Absent from states saved before the once-a-turn Veteran rule.
            veteran_played=bool(data.get("veteran_played", False)),
            draw=list(data["draw"]),
            discard=list(data["discard"]),
            reshuffles=int(data["reshuffles"]),
            loser=None if loser is None else int(loser),
            reason=None if reason is None else str(reason),
        )
