"""The Ambush! match state: dataclasses and their exact JSON round trip."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import compress
from typing import Any

from engines.ambush.grid import Cell, cell_json, spiral_index
from engines.base import Rng

PHASES = ("turn", "placing", "ambush", "returning", "over")


@dataclass
class Rules:
    """The table options that shape play (all public)."""

    castle_hp: int = 30
    hand_size: int = 5
    hand_limit: int = 10
    grab_cooldown_ms: int = 250
    ambush_idle_ms: int = 2000
    ambush_max_ms: int = 15000
    return_ms: int = 20000

    def to_json(self) -> dict[str, int]:
        return dict(self.__dict__)


@dataclass
class Race:
    """A running Ambush! phase: who called, when, and each hand's next free moment."""

    caller: int
    started_at: int
    last_grab_at: int
    next_free: list[int]
    ambush_at_call: int
    resume_step: str
    grabs: int = 0

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class Returning:
    """The hand-limit step: how many cards each over-limit seat still owes, and until when."""

    deadline: int
    owed: dict[int, int]
    resume_step: str

    def to_json(self) -> dict[str, Any]:
        return {
            "deadline": self.deadline,
            "owed": [[seat, n] for seat, n in sorted(self.owed.items())],
            "resume_step": self.resume_step,
        }


class PerCell(dict[Cell, dict[str, Any]]):
    """One JSON piece per cell, made on first use and handed out again afterwards: the
    battlefield entries of views (``kind`` "") and the grab, expose and place actions of
    listings (``kind`` is the action type). Views and legal lists are rebuilt after every
    move; sharing their unchanged pieces saves most of the allocations. Safe because they are
    read-only: the engine never edits a piece it handed out, nothing in the repository edits
    a view or a listing (``tests/engines/ambush/test_ambush_snapshots.py`` checks the engine
    side), and a table lives in one match's state (see ``AmbushState.per_cell``)."""

    __slots__ = ("kind",)

    def __init__(self, kind: str) -> None:
        super().__init__()
        self.kind = kind

    def __missing__(self, cell: Cell) -> dict[str, Any]:
        x, y = cell
        piece = {"type": self.kind, "cell": [x, y]} if self.kind else {"cell": [x, y]}
        self[cell] = piece
        return piece


@dataclass
class AmbushState:
    """Everything about one match. Hidden parts leave the engine only through ``view``."""

    seats: int
    names: list[str]
    rules: Rules
    rng: Rng
    deck: list[str]  # the central deck, top first
    hands: list[list[str]]
    captured: list[list[str]]  # face-down piles of the running race, capture order
    recent: list[list[str]]  # cards that joined each hand from the last race, capture order
    grid: dict[Cell, str]  # face-down battlefield cards
    hp: list[int]
    ward: list[int]
    alive: list[bool]
    resigned: list[bool]
    looks: list[dict[Cell, str]]  # each seat's still-valid Scout looks
    phase: str = "turn"
    turn: int = 0
    step: str = "expose"
    turn_number: int = 0
    reserved: tuple[Cell, str] | None = None  # the played card waiting to go down
    placing: list[str] = field(default_factory=list)  # Elven Archer's cards still to place
    exposed: tuple[Cell, str, int] | None = None  # last exposed card: cell, card, seat
    race: Race | None = None
    returning: Returning | None = None
    last_check: dict[str, Any] | None = None
    quiet_turns: int = 0  # turns in a row in which no card was played from a hand
    out_order: list[list[int]] = field(default_factory=list)  # eliminated groups, in order
    placings: list[list[int]] | None = None
    end_reason: str | None = None
    revision: int = 0  # counts accepted actions and ticks that changed something
    # Values derived from this revision (views, the cells in spiral order): not part of the
    # state, dropped whenever ``revision`` moves on (see ``derived``).
    view_cache: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)
    view_revision: int = field(default=-1, compare=False, repr=False)
    # View parts that outlive a revision because their source rarely changes (the options, the
    # last check): see ``view.public_view``. Not part of the state either.
    view_memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    cell_pieces: dict[str, PerCell] = field(default_factory=dict, compare=False, repr=False)

    def living(self) -> list[int]:
        # C-level (``compress``): asked for every view, listing and move.
        return list(compress(range(self.seats), self.alive))

    def derived(self) -> dict[Any, Any]:
        """The cache of values computed from this revision. Views and listings are asked for
        every seat after every change, so what they share is built once; this relies on every
        accepted action and state-changing tick bumping ``revision``."""
        if self.view_revision != self.revision:
            self.view_cache.clear()
            self.view_revision = self.revision
        return self.view_cache

    def per_cell(self, kind: str) -> PerCell:
        """This match's shared per-cell pieces of one kind (see ``PerCell``): read-only."""
        table = self.cell_pieces.get(kind)
        if table is None:
            table = self.cell_pieces[kind] = PerCell(kind)
        return table

    def cells_in_order(self) -> list[Cell]:
        """The battlefield's cells in spiral order, shared within a revision: do not mutate."""
        cache = self.view_cache if self.view_revision == self.revision else self.derived()
        cells: list[Cell] | None = cache.get("cells")
        if cells is None:
            cells = cache["cells"] = sorted(self.grid, key=spiral_index)
        return cells

    def to_json(self) -> dict[str, Any]:
        return {
            "seats": self.seats,
            "names": list(self.names),
            "rules": self.rules.to_json(),
            "rng": self.rng.to_json(),
            "deck": list(self.deck),
            "hands": [list(h) for h in self.hands],
            "captured": [list(c) for c in self.captured],
            "recent": [list(r) for r in self.recent],
            "grid": [[x, y, card] for (x, y), card in sorted(self.grid.items())],
            "hp": list(self.hp),
            "ward": list(self.ward),
            "alive": list(self.alive),
            "resigned": list(self.resigned),
            "looks": [[[x, y, c] for (x, y), c in sorted(k.items())] for k in self.looks],
            "phase": self.phase,
            "turn": self.turn,
            "step": self.step,
            "turn_number": self.turn_number,
            "reserved": None
            if self.reserved is None
            else [cell_json(self.reserved[0]), self.reserved[1]],
            "placing": list(self.placing),
            "exposed": None
            if self.exposed is None
            else [cell_json(self.exposed[0]), self.exposed[1], self.exposed[2]],
            "race": None if self.race is None else self.race.to_json(),
            "returning": None if self.returning is None else self.returning.to_json(),
            "last_check": self.last_check,
            "quiet_turns": self.quiet_turns,
            "out_order": [list(g) for g in self.out_order],
            "placings": None if self.placings is None else [list(g) for g in self.placings],
            "end_reason": self.end_reason,
            "revision": self.revision,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> AmbushState:
        race = data["race"]
        ret = data["returning"]
        reserved = data["reserved"]
        exposed = data["exposed"]
        return cls(
            seats=int(data["seats"]),
            names=[str(n) for n in data["names"]],
            rules=Rules(**{k: int(v) for k, v in data["rules"].items()}),
            rng=Rng.from_json(data["rng"]),
            deck=list(data["deck"]),
            hands=[list(h) for h in data["hands"]],
            captured=[list(c) for c in data["captured"]],
            recent=[list(r) for r in data["recent"]],
            grid={(int(x), int(y)): str(c) for x, y, c in data["grid"]},
            hp=[int(v) for v in data["hp"]],
            ward=[int(v) for v in data["ward"]],
            alive=[bool(v) for v in data["alive"]],
            resigned=[bool(v) for v in data["resigned"]],
            looks=[{(int(x), int(y)): str(c) for x, y, c in k} for k in data["looks"]],
            phase=str(data["phase"]),
            turn=int(data["turn"]),
            step=str(data["step"]),
            turn_number=int(data["turn_number"]),
            reserved=None
            if reserved is None
            else ((int(reserved[0][0]), int(reserved[0][1])), str(reserved[1])),
            placing=list(data["placing"]),
            exposed=None
            if exposed is None
            else ((int(exposed[0][0]), int(exposed[0][1])), str(exposed[1]), int(exposed[2])),
            race=None
            if race is None
            else Race(
                caller=int(race["caller"]),
                started_at=int(race["started_at"]),
                last_grab_at=int(race["last_grab_at"]),
                next_free=[int(v) for v in race["next_free"]],
                ambush_at_call=int(race["ambush_at_call"]),
                resume_step=str(race["resume_step"]),
                grabs=int(race["grabs"]),
            ),
            returning=None
            if ret is None
            else Returning(
                deadline=int(ret["deadline"]),
                owed={int(s): int(n) for s, n in ret["owed"]},
                resume_step=str(ret["resume_step"]),
            ),
            last_check=data["last_check"],
            quiet_turns=int(data["quiet_turns"]),
            out_order=[[int(s) for s in g] for g in data["out_order"]],
            placings=None
            if data["placings"] is None
            else [[int(s) for s in g] for g in data["placings"]],
            end_reason=data["end_reason"],
            revision=int(data["revision"]),
        )
