"""AmbushEngine: the Ambush! rules behind the shared engine contract (engines/base.py)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from engines.ambush import legal, race, rules, view
from engines.ambush.actions import ACTIONS, Apply
from engines.ambush.cards import CARDS, full_deck
from engines.ambush.rules import Ctx
from engines.ambush.state import AmbushState, Rules
from engines.base import Event, InvalidAction, Rng, option_int
from engines.envelope import Actions

_OPTIONS = frozenset(
    {"first_seat", "castle_hp", "hand_size", "hand_limit", "grab_cooldown_ms", "ambush_idle_ms",
     "ambush_max_ms", "return_ms", "deck", "names"}
)  # fmt: skip


def _bad(message: str) -> InvalidAction:
    return InvalidAction("ambush/bad_option", message)


@mypyc_attr(allow_interpreted_subclasses=True)  # tests subclass it (a compiled build)
class AmbushEngine:
    """Ambush! (rulebook v2.1, house deck): 2-4 castles, a face-down grid, grab races."""

    id: ClassVar[str] = "ambush"
    title: ClassVar[str] = "Ambush!"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 4
    actions: ClassVar[Actions] = ACTIONS
    whole_views: ClassVar[bool] = False

    def setup(self, seats: Any, seed: int, options: Mapping[str, Any] | None = None) -> AmbushState:
        """Set-up 1-5: shuffle, deal 5 each, dials at 30, the first seat starts.

        Raises ``InvalidAction`` (``ambush/bad_seats``, ``ambush/bad_option``) for a seat count
        outside 2-4 or a bad option. ``deck`` stacks the top of the central deck (top first;
        the cards it does not name are shuffled beneath); without ``first_seat`` the first
        seat is a seeded draw."""
        opts = dict(options or {})
        if isinstance(seats, bool) or not isinstance(seats, int):
            raise InvalidAction("ambush/bad_seats", "seats must be an integer")
        if not self.min_seats <= seats <= self.max_seats:
            raise InvalidAction("ambush/bad_seats", "Ambush! is for 2-4 players")
        unknown = set(opts) - _OPTIONS
        if unknown:
            raise _bad(f"unknown options {sorted(unknown)}")
        table = Rules(
            castle_hp=option_int(opts, "castle_hp", 30, "ambush", low=1, high=999),
            hand_size=option_int(opts, "hand_size", 5, "ambush", low=0, high=52 // seats),
            hand_limit=option_int(opts, "hand_limit", 10, "ambush", low=1, high=52),
            grab_cooldown_ms=option_int(opts, "grab_cooldown_ms", 250, "ambush", low=0, high=10**6),
            ambush_idle_ms=option_int(opts, "ambush_idle_ms", 2000, "ambush", low=1, high=10**7),
            ambush_max_ms=option_int(opts, "ambush_max_ms", 15000, "ambush", low=1, high=10**7),
            return_ms=option_int(opts, "return_ms", 20000, "ambush", low=1, high=10**7),
        )
        if table.hand_limit < table.hand_size:
            raise _bad("hand_limit must be at least hand_size")
        rng = Rng(seed)
        deck = self._stacked_deck(opts.get("deck"), rng)
        names = self._names(opts.get("names"), seats)
        hands = []
        for _ in range(seats):
            hands.append(deck[: table.hand_size])
            del deck[: table.hand_size]
        if "first_seat" in opts:
            first = option_int(opts, "first_seat", 0, "ambush", low=0, high=seats - 1)
        else:
            first = rng.randbelow(seats)
        state = AmbushState(
            seats=seats,
            names=names,
            rules=table,
            rng=rng,
            deck=deck,
            hands=hands,
            captured=[[] for _ in range(seats)],
            recent=[[] for _ in range(seats)],
            grid={},
            hp=[table.castle_hp] * seats,
            ward=[0] * seats,
            alive=[True] * seats,
            resigned=[False] * seats,
            looks=[{} for _ in range(seats)],
        )
        rules.start_turn(state, Ctx(), first)
        return state

    @staticmethod
    def _stacked_deck(stack: Any, rng: Rng) -> list[str]:
        deck = full_deck()
        if stack is None:
            rng.shuffle(deck)
            return deck
        if not isinstance(stack, list) or not all(isinstance(c, str) for c in stack):
            raise _bad("deck must be a list of card ids, top first")
        if any(c not in CARDS for c in stack):
            raise _bad("deck names an unknown card")
        rest = Counter(deck)
        rest.subtract(Counter(stack))
        if any(n < 0 for n in rest.values()):
            raise _bad("deck names more copies of a card than the deck holds")
        below = list(rest.elements())
        rng.shuffle(below)
        return list(stack) + below

    @staticmethod
    def _names(names: Any, seats: int) -> list[str]:
        if names is None:
            return [f"Castle {s + 1}" for s in range(seats)]
        if (
            not isinstance(names, list)
            or len(names) != seats
            or not all(isinstance(n, str) and 0 < len(n) <= 64 for n in names)
        ):
            raise _bad("names must be one non-empty name (<= 64 chars) per seat")
        return list(names)

    # Hosts ask these for every seat before every step: the module functions themselves, not
    # a method that forwards to them (one Python frame less each time).
    to_act = staticmethod(view.to_act)
    awaiting = staticmethod(view.awaiting)
    legal_actions = staticmethod(legal.legal_actions)

    def apply(self, state: AmbushState, seat: Any, action: Any, at_ms: Any) -> list[Event]:
        """Validate completely (the table ``actions.ACTIONS`` and its rules), then apply.
        ``Any``: a malformed seat, action or time is refused by the envelope with its code,
        compiled (mypyc) too, where a typed parameter would raise TypeError first."""
        # Typed, the pair is unpacked as a tuple, not through the iterator protocol.
        validated: Apply = ACTIONS.dispatch(state, seat, action, at_ms)
        perform, args = validated
        ctx = Ctx()
        perform(state, ctx, *args)
        rules.finish(state, ctx)
        state.revision += 1
        return ctx.events

    def tick(self, state: AmbushState, now_ms: int) -> list[Event]:
        """End a race that went idle or hit its maximum; time out the hand-limit step."""
        ctx = Ctx()
        while True:
            due = self.deadline(state)
            if due is None or now_ms < due:
                break
            if state.phase == "ambush" and state.race is not None:
                running = state.race
                idle_end = running.last_grab_at + state.rules.ambush_idle_ms
                reason = "idle" if due == idle_end else "max"
                race.end_race(state, ctx, due, reason)
            elif state.phase == "returning":
                race.return_timed_out(state, ctx)
            rules.finish(state, ctx)
        if ctx.events:
            state.revision += 1
        return ctx.events

    def deadline(self, state: AmbushState) -> int | None:
        # Asked before every step of a bot game: ``race.race_end_at`` inline.
        running = state.race
        if running is not None and state.phase == "ambush":
            table = state.rules
            return min(
                running.last_grab_at + table.ambush_idle_ms,
                running.started_at + table.ambush_max_ms,
            )
        if state.phase == "returning" and state.returning is not None:
            return state.returning.deadline
        return None

    # The seat's view (see ``view.seat_view``: the public part is built once per revision and
    # nested parts are shared, so treat a view as read-only) and the placings once the game is
    # over (``rules.outcome``): the module functions themselves, as for ``to_act`` above.
    view = staticmethod(view.seat_view)

    def view_audience(self, state: AmbushState, seat: int | None) -> Hashable:
        """Each seat sees its own hand: every seat, and the spectators, is its own audience."""
        return seat

    outcome = staticmethod(rules.outcome)

    def to_json(self, state: AmbushState) -> dict[str, Any]:
        return state.to_json()

    def from_json(self, data: Mapping[str, Any]) -> AmbushState:
        return AmbushState.from_json(data)
