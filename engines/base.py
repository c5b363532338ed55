"""The engine contract every game follows: protocol, outcome, errors, seeded RNG, events.

Engines are pure: no I/O, no clock, no global randomness. Time enters only through the
``at_ms``/``now_ms`` arguments the session passes in, and every random choice comes from an
``Rng`` whose seed and position live in the engine's state, so ``setup(seed)`` plus the ordered
action log reproduces a match exactly.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, MutableSequence, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar, runtime_checkable

# Re-exported: engines and the server import the refusals from here.
from engines.errors import ActionError as ActionError
from engines.errors import IllegalAction as IllegalAction
from engines.errors import InvalidAction as InvalidAction

State = Any
"""Each engine's own state type; it leaves the engine only through ``view``/``to_json``."""

Event = dict[str, Any]
"""A JSON-able dict with ``type`` and ``visible_to`` (``"all"`` or a sorted list of seats).

An event that not everyone may see may carry ``redacted``: the form shown to everyone else
(``None`` or absent: the others learn nothing of it).
"""

ALL = "all"


@dataclass(frozen=True)
class SeatResult:
    """How one seat finished: castle destroyed, resigned (or forfeited), damage in 0..1."""

    destroyed: bool
    resigned: bool
    damage: float

    def to_json(self) -> dict[str, Any]:
        return {"destroyed": self.destroyed, "resigned": self.resigned, "damage": self.damage}


@dataclass(frozen=True)
class Outcome:
    """The result of a finished match: placings first to last (ties share a list)."""

    placings: list[list[int]]
    seats: dict[int, SeatResult]
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {
            "placings": [list(group) for group in self.placings],
            "seats": {str(seat): result.to_json() for seat, result in sorted(self.seats.items())},
            "reason": self.reason,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        seats = {
            int(seat): SeatResult(bool(r["destroyed"]), bool(r["resigned"]), float(r["damage"]))
            for seat, r in data["seats"].items()
        }
        return cls([list(map(int, g)) for g in data["placings"]], seats, str(data["reason"]))

    @property
    def winners(self) -> list[int]:
        return list(self.placings[0]) if self.placings else []


@runtime_checkable
class Engine(Protocol):
    """One game's rules: everything the server reads from an engine. Seats are ``0..n-1``;
    actions and views are JSON-able dicts.

    An engine in plain Python may subclass ``Engine`` to take the defaults written here
    (``awaiting``, ``view_audience``, ``whole_views``, ``tick``, ``deadline``); the compiled
    engines define every member themselves. ``apply`` is the game's ``Actions`` table
    (``engines.envelope``) dispatching to its rules; engines/README.md, "Add a game".
    """

    id: ClassVar[str]
    title: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    whole_views: ClassVar[bool] = False
    """Whether every view patch the server sends carries the whole view instead of a diff
    (``app.sessions.seat_views``); for a client that reads the view from each patch."""

    def setup(self, seats: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        """A new match; raises ``InvalidAction`` for a bad seat count or option."""
        ...

    def to_act(self, state: State) -> frozenset[int]:
        """Every seat that may act now, including out-of-turn actions."""
        ...

    def awaiting(self, state: State) -> frozenset[int]:
        """The seats the game is waiting on: their turn clocks run, and a correspondence
        player hears it is his move. Defaults to ``to_act``; an engine whose ``to_act``
        includes optional out-of-turn actions (an Ambush! call) leaves those seats out."""
        return self.to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        """The seat's legal actions, the sensible default (pass, first spiral cell) first."""
        ...

    def apply(self, state: State, seat: int, action: dict[str, Any], at_ms: int) -> list[Event]:
        """Validate completely, then change ``state``; a refusal raises and changes nothing.
        ``InvalidAction`` for a malformed action, ``IllegalAction`` for one the rules refuse
        now (engines/README.md, "Refusals")."""
        ...

    def tick(self, state: State, now_ms: int) -> list[Event]:
        """Fire every deadline due at ``now_ms``. Default: a game without deadlines."""
        return []

    def deadline(self, state: State) -> int | None:
        """The next ms at which the session must call ``tick``, or None (the default)."""
        return None

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know (``None``: a spectator), as a JSON-able dict."""
        ...

    def view_audience(self, state: State, seat: int | None) -> Hashable:
        """Which seats get the same view: ``view(state, a) == view(state, b)`` whenever their
        audiences are equal, so a host builds and encodes one view per audience. Default:
        every seat, and the spectators, is its own audience."""
        return seat

    def outcome(self, state: State) -> Outcome | None:
        """The result once the match is over, None while it runs."""
        ...

    def to_json(self, state: State) -> dict[str, Any]:
        """The complete state, RNG included, as JSON-able data."""
        ...

    def from_json(self, data: Mapping[str, Any]) -> State:
        """The inverse of ``to_json``."""
        ...


T = TypeVar("T")

_MASK64 = (1 << 64) - 1


# SplitMix64's constants, and the rejection limit (the largest multiple of n that fits in 64
# bits) for every bound a deck, a hand or a think time needs.
_GOLDEN = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_TWO64 = 1 << 64
_LIMITS = [0] + [_TWO64 - _TWO64 % n for n in range(1, 4097)]


class Rng:
    """A counter-based seeded RNG (SplitMix64): its whole state is ``seed`` and ``position``.

    Two integers make the state cheap to copy, compare and serialise, and identical on every
    platform and Python version, which replay and golden tests rely on.
    """

    __slots__ = ("position", "seed")

    def __init__(self, seed: int, position: int = 0) -> None:
        self.seed = seed & _MASK64
        self.position = position

    def next_u64(self) -> int:
        self.position += 1
        z = (self.seed + self.position * _GOLDEN) & _MASK64
        z = ((z ^ (z >> 30)) * _MIX1) & _MASK64
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK64
        return z ^ (z >> 31)

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``0..n-1`` (rejection sampling, no modulo bias).

        ``next_u64`` is written out here: bots draw on most decisions and decks are shuffled
        often, and the call per draw cost more than the arithmetic. Same values, same
        ``position`` (``tests/engines/test_rng.py`` checks it against the plain loop)."""
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        limit = _LIMITS[n] if n < len(_LIMITS) else _TWO64 - _TWO64 % n
        seed, position = self.seed, self.position
        while True:
            position += 1
            z = (seed + position * _GOLDEN) & _MASK64
            z = ((z ^ (z >> 30)) * _MIX1) & _MASK64
            z = ((z ^ (z >> 27)) * _MIX2) & _MASK64
            z ^= z >> 31
            if z < limit:
                self.position = position
                return z % n

    def random(self) -> float:
        """A float in [0, 1)."""
        return (self.next_u64() >> 11) / float(1 << 53)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.randbelow(len(items))]

    def shuffle(self, items: MutableSequence[Any]) -> None:
        """Fisher-Yates in place, ``j = randbelow(i + 1)`` from the top down, with the draws
        written out (``seed + position * golden`` carried as a running sum)."""
        if len(items) >= len(_LIMITS):
            for i in range(len(items) - 1, 0, -1):
                j = self.randbelow(i + 1)
                items[i], items[j] = items[j], items[i]
            return
        position = self.position
        counter = self.seed + position * _GOLDEN
        for i in range(len(items) - 1, 0, -1):
            position += 1
            counter += _GOLDEN
            z = counter & _MASK64
            z = ((z ^ (z >> 30)) * _MIX1) & _MASK64
            z = ((z ^ (z >> 27)) * _MIX2) & _MASK64
            z ^= z >> 31
            if z < _LIMITS[i + 1]:
                j = z % (i + 1)
            else:  # rejected (odds below 2**-50 for a deck): draw again as randbelow does
                self.position = position
                j = self.randbelow(i + 1)
                position = self.position
                counter = self.seed + position * _GOLDEN
            items[i], items[j] = items[j], items[i]
        self.position = position

    def to_json(self) -> list[int]:
        return [self.seed, self.position]

    @classmethod
    def from_json(cls, data: Sequence[int]) -> Rng:
        return cls(int(data[0]), int(data[1]))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and (self.seed, self.position) == (
            other.seed,
            other.position,
        )

    def __hash__(self) -> int:
        return hash((self.seed, self.position))

    def __repr__(self) -> str:
        return f"Rng(seed={self.seed}, position={self.position})"


def make_event(
    kind: str,
    visible_to: Iterable[int] | None = None,
    redacted: Mapping[str, Any] | None = None,
    **fields: Any,
) -> Event:
    """An event seen by ``visible_to`` (None: everyone); ``redacted`` is the others' form."""
    event: Event = {"type": kind, **fields}
    event["visible_to"] = ALL if visible_to is None else sorted(set(visible_to))
    if redacted is not None:
        event["redacted"] = {"type": kind, **redacted}
    return event


def can_see(event: Mapping[str, Any], seat: int | None) -> bool:
    """Whether ``seat`` (None: a spectator) may see the full event."""
    visible = event.get("visible_to", ALL)
    return visible == ALL or (seat is not None and seat in visible)


def event_for(event: Mapping[str, Any], seat: int | None) -> dict[str, Any] | None:
    """The form of ``event`` that ``seat`` may receive, or None when it learns nothing."""
    if can_see(event, seat):
        shown = dict(event)  # a C-level copy and two pops beat a filtering comprehension
        shown.pop("visible_to", None)
        shown.pop("redacted", None)
        return shown
    redacted = event.get("redacted")
    return dict(redacted) if redacted is not None else None


def events_for(events: Iterable[Mapping[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """Every event as ``seat`` may see it, hidden ones dropped."""
    out: list[dict[str, Any]] = []
    for event in events:
        shown = event_for(event, seat)
        if shown is not None:
            out.append(shown)
    return out


def require(condition: bool, code: str, message: str, *, illegal: bool = True) -> None:
    """Raise ``IllegalAction`` (or ``InvalidAction`` with ``illegal=False``) unless true."""
    if not condition:
        raise (IllegalAction if illegal else InvalidAction)(code, message)


def option_int(
    options: Mapping[str, Any], name: str, default: int, game: str, *, low: int, high: int
) -> int:
    """An integer table option within ``low..high``; raises ``InvalidAction`` otherwise."""
    value = options.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidAction(f"{game}/bad_option", f"{name} must be an integer in {low}..{high}")
    return value


@dataclass(frozen=True)
class Decision:
    """What a bot wants to do and when (``at_ms`` on the match clock)."""

    action: dict[str, Any]
    at_ms: int


class Bot(Protocol):
    """A player that sees only what its seat may see: its events and its view.

    ``bots.py`` in each engine package defines ``RandomBot`` and ``HeuristicBot`` with the
    constructor ``(seat, seed)``. The host (server or playout) passes every event the seat
    receives to ``observe`` and asks ``decide`` again after every change; a bot keeps its
    own plan (a reaction already under way) by returning the same ``at_ms``.
    """

    seat: int

    def observe(self, events: list[dict[str, Any]], view: dict[str, Any]) -> None: ...

    def decide(
        self, view: dict[str, Any], legal: list[dict[str, Any]], now_ms: int
    ) -> Decision | None: ...


def view_audience(engine: Engine, state: State, seat: int | None) -> Hashable:
    """``engine.view_audience(state, seat)``: which seats get the same view."""
    return engine.view_audience(state, seat)


def awaiting_seats(engine: Engine, state: State) -> frozenset[int]:
    """``engine.awaiting(state)``: the seats the game is waiting on (whose turn clock runs)."""
    return engine.awaiting(state)
