"""The Ambush! match state: dataclasses and their exact JSON round trip."""

from __future__ import annotations

from bisect import insort
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from itertools import compress
from typing import Any, NamedTuple

from engines.ambush.cards import CARD_ORDER
from engines.ambush.grid import Cell, cell_json, full_frontier, grow_frontier, spiral_index
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
        # Its fields, not ``__dict__``: a compiled (mypyc) dataclass has none.
        return {f.name: getattr(self, f.name) for f in fields(self)}


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
        return {f.name: getattr(self, f.name) for f in fields(self)}


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
    listings (``kind`` is the action type); see ``AmbushState.cell_entries``. Views and legal
    lists are rebuilt after every move; sharing their unchanged pieces saves most of the
    allocations. Safe because they are read-only: the engine never edits a piece it handed
    out, nothing in the repository edits a view or a listing
    (``tests/engines/ambush/test_ambush_snapshots.py`` checks the engine side), and a table
    lives in one match's state."""

    __slots__ = ("kind",)

    def __init__(self, kind: str) -> None:
        super().__init__()
        self.kind = kind

    def __missing__(self, cell: Cell) -> dict[str, Any]:
        x, y = cell
        piece = {"type": self.kind, "cell": [x, y]} if self.kind else {"cell": [x, y]}
        self[cell] = piece
        return piece


class Living(NamedTuple):
    """The living seats in each form views, hosts and listings ask for, next to the ``alive``
    list they were built from (see ``AmbushState.living_now``)."""

    alive: list[bool]
    seats: list[int]
    frozen: frozenset[int]
    opponents: dict[int, list[int | None]]


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
    # The exhaustion house rule: turns in a row that began with the central deck empty and
    # ended with it still empty, no card played; and whether the current turn began so.
    dry_turns: int = 0
    began_dry: bool = False
    out_order: list[list[int]] = field(default_factory=list)  # eliminated groups, in order
    placings: list[list[int]] | None = None
    end_reason: str | None = None
    revision: int = 0  # counts accepted actions and ticks that changed something
    # Values derived from one revision, shared by every view and listing asked for it (hosts
    # ask for every seat after every change): not part of the state. Each is tagged with the
    # revision it was built for and is stale once ``revision`` moves on, which relies on every
    # accepted action and state-changing tick bumping it.
    public: dict[str, Any] | None = field(default=None, compare=False, repr=False)
    public_at: int = field(default=-1, compare=False, repr=False)
    grabs: list[dict[str, Any]] = field(default_factory=list, compare=False, repr=False)
    grabs_at: int = field(default=-1, compare=False, repr=False)
    # The free cells as sorted spiral indices, carried from card to card by ``put_card`` and
    # rebuilt from the grid when dropped (None) or out of step with it (``frontier_size`` is
    # the grid size it was carried to). Not part of the state: see ``free_indices``.
    frontier: list[int] | None = field(default=None, compare=False, repr=False)
    frontier_size: int = field(default=-1, compare=False, repr=False)
    # The battlefield's cells in spiral order, carried the same way by ``put_card`` and
    # ``take_card`` (copy-on-write: a list once returned never changes) instead of a sort
    # after every change; see ``cells_in_order``.
    order: list[Cell] | None = field(default=None, compare=False, repr=False)
    order_size: int = field(default=-1, compare=False, repr=False)
    # Parts of views and listings that outlive a revision because their source rarely changes:
    # the options and the last check (``view.public_view``), the living seats (``living_now``)
    # and each seat's hand, sorted, next to the hand it was sorted from (``sorted_hand``). Not
    # part of the state either.
    view_memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    living_memo: Living | None = field(default=None, compare=False, repr=False)
    sorted_hands: dict[int, tuple[list[str], list[str]]] = field(
        default_factory=dict, compare=False, repr=False
    )
    # This match's shared per-cell pieces (see ``PerCell``): battlefield entries of views, and
    # the expose, place and grab actions of listings. Read-only.
    cell_entries: PerCell = field(default_factory=lambda: PerCell(""), compare=False, repr=False)
    expose_actions: PerCell = field(
        default_factory=lambda: PerCell("expose"), compare=False, repr=False
    )
    place_actions: PerCell = field(
        default_factory=lambda: PerCell("place"), compare=False, repr=False
    )
    grab_actions: PerCell = field(
        default_factory=lambda: PerCell("grab"), compare=False, repr=False
    )
    # This match's listing for a seat that may only call or resign (every seat but the turn's
    # during a turn); its two actions also end the other listings. Read-only.
    bystander: list[dict[str, Any]] = field(
        default_factory=lambda: [{"type": "call_ambush"}, {"type": "resign"}],
        compare=False,
        repr=False,
    )

    def living(self) -> list[int]:
        # C-level (``compress``): asked for every view, listing and move.
        return list(compress(range(self.seats), self.alive))

    def living_now(self) -> Living:
        """The living seats (see ``Living``), rebuilt only when ``alive`` changed: asked for
        every view, listing and step. Shared: do not mutate."""
        kept = self.living_memo
        if kept is None or kept.alive != self.alive:
            seats = self.living()
            opponents: dict[int, list[int | None]] = {
                seat: [other for other in seats if other != seat] for seat in seats
            }
            kept = Living(list(self.alive), seats, frozenset(seats), opponents)
            self.living_memo = kept
        return kept

    def sorted_hand(self, seat: int) -> list[str]:
        """The seat's hand in card order. Most moves leave a given hand as it was, so the
        sorted copy is kept across revisions and rebuilt when the hand differs from the one it
        was sorted from. Shared by views and listings: do not mutate."""
        hand = self.hands[seat]
        kept = self.sorted_hands.get(seat)
        if kept is None or kept[0] != hand:
            kept = (list(hand), sorted(hand, key=CARD_ORDER.__getitem__))
            self.sorted_hands[seat] = kept
        return kept[1]

    def put_card(self, cell: Cell, card: str) -> None:
        """A card goes face down at ``cell`` (every card that goes down comes through here,
        which keeps the frontier carried; a card that leaves drops it: ``take_card``)."""
        grid = self.grid
        grid[cell] = card
        size = len(grid)
        order = self.order
        if order is not None and self.order_size == size - 1:
            order = [*order]
            insort(order, cell, key=spiral_index)
            self.order = order
            self.order_size = size
        else:
            self.order = None
        frontier = self.frontier
        if frontier is not None:
            if self.frontier_size == size - 1 and grow_frontier(grid, frontier, cell):
                self.frontier_size = size
            else:
                self.frontier = None

    def take_card(self, cell: Cell) -> str:
        """The card at ``cell`` leaves the battlefield (a grab)."""
        card = self.grid.pop(cell)
        self.frontier = None
        order = self.order
        if order is not None and self.order_size == len(self.grid) + 1:
            order = [*order]
            order.remove(cell)
            self.order = order
            self.order_size -= 1
        else:
            self.order = None
        return card

    def clear_grid(self) -> None:
        self.grid.clear()
        self.frontier = None
        self.order = []
        self.order_size = 0

    def free_indices(self) -> list[int] | None:
        """The free cells (empty, next to a card or to the deck while the battlefield is empty;
        the reserved cell included) as sorted spiral indices, shared: do not mutate. None when
        a card lies beyond the spiral table (a state edited by hand): use ``grid.free_cells``."""
        frontier = self.frontier
        if frontier is None or self.frontier_size != len(self.grid):
            found = full_frontier(self.grid)
            if found is None:
                return None
            frontier = self.frontier = sorted(found)
            self.frontier_size = len(self.grid)
        return frontier

    def cells_in_order(self) -> list[Cell]:
        """The battlefield's cells in spiral order (shared: do not mutate), as carried by
        ``put_card`` and ``take_card``; sorted afresh when dropped or out of step with the
        grid (``order_size`` is the grid size it was carried to)."""
        order = self.order
        if order is None or self.order_size != len(self.grid):
            order = self.order = sorted(self.grid, key=spiral_index)
            self.order_size = len(self.grid)
        return order

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
            "dry_turns": self.dry_turns,
            "began_dry": self.began_dry,
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
            # Absent from states saved before exhaustion waited for a whole dry round.
            dry_turns=int(data.get("dry_turns", 0)),
            began_dry=bool(data.get("began_dry", False)),
            out_order=[[int(s) for s in g] for g in data["out_order"]],
            placings=None
            if data["placings"] is None
            else [[int(s) for s in g] for g in data["placings"]],
            end_reason=data["end_reason"],
            revision=int(data["revision"]),
        )
