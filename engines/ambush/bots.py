"""Ambush! bots: RandomBot and a HeuristicBot that remembers cells, calls, grabs and targets."""

from __future__ import annotations

from operator import countOf, itemgetter
from typing import Any

from mypy_extensions import mypyc_attr

from engines.ambush.bot_targets import Grudges, pick_richest, pick_target
from engines.ambush.bot_values import (
    DAMAGE_ORDER,
    DAMAGING,
    GRAB_SPREAD,
    SPARE,
    UNKNOWN_VALUE,
    VALUES,
    WORTH,
)
from engines.ambush.cards import AMBUSH, CARDS
from engines.base import Decision, Rng
from engines.botkit import DEFAULT_LEVEL, SeededBot

Action = dict[str, Any]
CellKey = tuple[int, int]
_CELL = itemgetter("cell")


def _key(cell: Any) -> CellKey:
    return (int(cell[0]), int(cell[1]))


@mypyc_attr(allow_interpreted_subclasses=True)
class _Bot(SeededBot):
    """Shared plumbing: a seeded RNG, a level (its reaction times, see ``engines.botkit``) and
    plans kept across re-asks until they go stale."""

    def __init__(self, seat: int, seed: int, level: str = DEFAULT_LEVEL) -> None:
        super().__init__(seat, seed, level)
        self.turn_plan: tuple[tuple[Any, ...], Decision] | None = None
        self.call_plan: Decision | None = None
        self.grab_plan: Decision | None = None
        self.race_id: int | None = None
        self.return_plan: Decision | None = None

    # The event types ``remember`` learns from; the others skip the call (observe runs for
    # every seat after every change).
    remembers: frozenset[str] = frozenset()

    def observe(self, events: list[dict[str, Any]], view: dict[str, Any]) -> None:
        remembers = self.remembers
        for event in events:
            kind = event["type"]
            if kind == "ambush_called":
                self.call_plan = None  # whoever called, this call is spent
                self.call_spent()
            if kind in remembers:
                self.remember(event)

    def call_spent(self) -> None:
        """Hook: a call happened; a bot that planned one drops it."""

    def remember(self, event: dict[str, Any]) -> None:
        """Hook for what a bot learns from one event."""

    def decide(self, view: dict[str, Any], legal: list[Action], now_ms: int) -> Decision | None:
        """The earliest of: a grab (in a race), a hand-limit return, the turn's move, a call.
        Each plan is kept across re-asks (same ``at_ms``) until it goes stale; a plan that does
        not apply in this phase is dropped. Among equal times the first in that order wins."""
        phase = view["phase"]
        if phase == "over" or not legal:
            return None
        # Asked for every seat after every change, so each phase takes its own short path.
        # No call is listed during a race or the hand-limit step.
        if phase == "ambush":
            self.return_plan = None
            self.call_plan = None
            return self._grab(view, legal, now_ms)
        self.grab_plan = None
        self.race_id = None
        if phase == "returning":
            self.call_plan = None
            return self._return(view, legal, now_ms)
        self.return_plan = None
        turn: Decision | None = None
        if view["turn"] == self.seat and phase in ("turn", "placing"):
            key = self.turn_key(view)
            kept = self.turn_plan
            if kept is None or kept[0] != key:
                action = self.choose_turn(view, legal)
                kept = self.turn_plan = (key, Decision(action, now_ms + self.think(1000, 3000)))
            turn = kept[1]
        # A call is listed exactly in the turn phase, for every seat (``race.can_call``).
        if phase != "turn" or not self.wants_call(view):
            self.call_plan = None
            return turn
        call = self.call_plan
        if call is None:
            call = self.call_plan = Decision({"type": "call_ambush"}, now_ms + self.call_delay())
        return call if turn is None or call.at_ms < turn.at_ms else turn

    def _return(self, view: dict[str, Any], legal: list[Action], now_ms: int) -> Decision | None:
        returning = [a for a in legal if a["type"] == "return"]
        if not returning:
            return None
        if self.return_plan is None:
            owed = len(returning[0]["cards"])
            action = {"type": "return", "cards": self.choose_return(view, owed)}
            self.return_plan = Decision(action, now_ms + self.think(800, 2500))
        return self.return_plan

    def turn_key(self, view: dict[str, Any]) -> tuple[Any, ...]:
        """What the turn's plan depends on; the plan is kept while this stays equal. The hand
        and the living seats go in as the view's own lists, compared by value, not copied:
        views are read-only, so a kept key never changes."""
        return (
            view["turn_number"],
            view["phase"],
            view["step"],
            view["placing_left"],
            view["hand"],
            len(view["battlefield"]),
            view["to_act"],
        )

    def _grab(self, view: dict[str, Any], legal: list[Action], now_ms: int) -> Decision | None:
        """The planned grab, kept while its cell is down and the hand free by then; else a
        new aim, each delay a human reaction drawn for the bot's level: the first grab after
        the call, a re-aim when the cell went, the next grab after the bot's own (never before
        its hand is free again)."""
        race = view["race"]
        started = race["started_at"]
        plan = self.grab_plan
        level = self.level
        # The grab comes ``reaction`` after ``base``, never before ``floor``.
        if self.race_id != started:
            self.race_id = started
            self.new_race()
            floor, base, reaction = started, started, level.first_grab
        elif plan is None:
            floor, base, reaction = now_ms, now_ms, level.reaim
        elif plan.at_ms >= race["next_free"][self.seat]:
            if self.still_down(plan, legal):
                return plan
            floor, base, reaction = plan.at_ms, now_ms, level.reaim  # target gone: re-aim
        else:  # own grab landed
            floor, base, reaction = race["next_free"][self.seat], plan.at_ms, level.next_grab
        cell = self.choose_grab(view, legal)
        if cell is None:  # nothing worth grabbing: no reaction drawn either
            self.grab_plan = None
            return None
        at = max(floor, base + reaction.draw(self.rng))
        self.grab_plan = Decision({"type": "grab", "cell": list(cell)}, at)
        return self.grab_plan

    def new_race(self) -> None:
        """Hook: the first re-ask in a new race; a bot drops what it kept from the last."""

    def still_down(self, plan: Decision, legal: list[Action]) -> bool:
        """Whether the planned grab is still listed (a C-level scan: it is built as listed)."""
        return plan.action in legal

    # Strategy hooks.
    def call_delay(self) -> int:
        return self.level.call.draw(self.rng)

    def wants_call(self, view: dict[str, Any]) -> bool:
        return False

    def choose_grab(self, view: dict[str, Any], legal: list[Action]) -> CellKey | None:
        """The cell to grab next among the listed grabs."""
        # tuple(): the engine lists cells as two plain ints, so this equals ``_key`` per cell.
        cells = {tuple(a["cell"]) for a in legal if a["type"] == "grab"}
        return self.choose_cell(view, cells)

    def choose_cell(self, view: dict[str, Any], cells: set[CellKey]) -> CellKey | None:
        return self.rng.choice(sorted(cells)) if cells else None

    def choose_turn(self, view: dict[str, Any], legal: list[Action]) -> Action:
        return legal[0]

    def choose_return(self, view: dict[str, Any], owed: int) -> list[str]:
        hand = list(view["hand"])
        self.rng.shuffle(hand)
        return hand[:owed]


class RandomBot(_Bot):
    """Random legal turns, an occasional call (true or not), random grabs at its level's pace."""

    def __init__(self, seat: int, seed: int, level: str = DEFAULT_LEVEL) -> None:
        super().__init__(seat, seed, level)
        self.call_turn = -1
        self.calling = False

    def wants_call(self, view: dict[str, Any]) -> bool:
        if view["turn_number"] != self.call_turn:  # one roll per turn, kept across re-asks
            self.call_turn = view["turn_number"]
            self.calling = self.rng.random() < 0.12
        return self.calling

    def call_delay(self) -> int:
        return 300 + self.rng.randbelow(3701)

    def call_spent(self) -> None:
        self.calling = False

    def choose_turn(self, view: dict[str, Any], legal: list[Action]) -> Action:
        if self.rng.random() < 0.001:
            return {"type": "resign"}
        return random_move(self.rng, legal)


def random_move(rng: Rng, legal: list[Action]) -> Action:
    """A random move of the turn (no call, no resignation), passing one time in ten at most."""
    moves = [a for a in legal if a["type"] not in ("resign", "call_ambush")]
    if moves and moves[0]["type"] == "pass" and len(moves) > 1 and rng.random() > 0.1:
        moves = moves[1:]
    return rng.choice(moves) if moves else legal[0]


@mypyc_attr(allow_interpreted_subclasses=True)  # tests subclass it (a compiled build)
class HeuristicBot(_Bot):
    """Remembers every card it saw go down, calls on two known Ambush! cards, grabs the best
    cells first, hits whom the game points at (``bot_targets``: revenge, threat, the leader,
    a castle it can finish, chance) and returns its weakest cards at the limit. An easy bot
    slips: some turns and races it plays at random, some true calls it does not see."""

    def __init__(self, seat: int, seed: int, level: str = DEFAULT_LEVEL) -> None:
        super().__init__(seat, seed, level)
        self.grudges = Grudges(seat)
        # The turn whose call this bot overlooks (easy bots), once rolled for that turn.
        self.overlooked: tuple[int, bool] = (-1, False)
        self.known: dict[CellKey, str] = {}
        # The running race's cells worth grabbing, worst first (see ``choose_grab``), and the
        # cells grabbed since the ranking was made (from the ``grabbed`` events).
        self.ranking: list[CellKey] | None = None
        self.taken: set[CellKey] = set()

    # ``observe`` handles the frequent kinds itself (every grab, every card down: it runs for
    # every seat after every change); ``remember`` learns from the rarer ones.
    remembers = frozenset({"looked", "placed", "swapped", "shuffled_back"})

    def observe(self, events: list[dict[str, Any]], view: dict[str, Any]) -> None:
        for event in events:
            kind = event["type"]
            # Event cells are two plain ints, so the tuple equals ``_key``.
            if kind == "grabbed":
                x, y = event["cell"]
                self.known.pop((x, y), None)
                self.taken.add((x, y))
            elif kind == "exposed" or kind == "played":
                x, y = event["cell"]
                self.known[x, y] = event["card"]
                if kind == "played":
                    self.grudges.played(event)
            elif kind == "turn_started":
                self.grudges.fade()
            elif kind == "ambush_called":
                self.call_plan = None  # whoever called, this call is spent
                self.call_spent()
            elif kind in self.remembers:
                self.remember(event)

    def remember(self, event: dict[str, Any]) -> None:
        kind = event["type"]
        if kind == "looked" and "card" in event:
            self.known[_key(event["cell"])] = event["card"]
        elif kind == "placed":
            self.known.pop(_key(event["cell"]), None)
        elif kind == "swapped":
            a, b = (_key(c) for c in event["cells"])
            card_a, card_b = self.known.pop(a, None), self.known.pop(b, None)
            if card_a is not None:
                self.known[b] = card_a
            if card_b is not None:
                self.known[a] = card_b
        elif kind == "shuffled_back":
            self.known.clear()

    def known_ambushes(self, view: dict[str, Any]) -> int:
        # Asked on every re-ask of every turn: look at the battlefield only when this bot
        # remembers an Ambush! card somewhere (a C-level scan of the values first).
        if AMBUSH not in self.known.values():
            return 0
        remembered = [cell for cell, card in self.known.items() if card == AMBUSH]
        # The cells down, C-level (tuple() equals ``_key``: the engine lists plain ints); the
        # remembered cells are distinct, so the overlap counts them.
        down = set(map(tuple, map(_CELL, view["battlefield"])))
        return len(down.intersection(remembered))

    def wants_call(self, view: dict[str, Any]) -> bool:
        # Asked on every decision of every turn. The cards still down are among those
        # remembered, so fewer than two remembered Ambush! cards (a C-level count) settle it.
        if countOf(self.known.values(), AMBUSH) < 2:
            return False
        return self.known_ambushes(view) >= 2 and not self.overlooks(view["turn_number"])

    def overlooks(self, turn_number: int) -> bool:
        """An easy bot misses a true call on some turns (rolled once a turn)."""
        if self.level.slip <= 0.0:
            return False
        if self.overlooked[0] != turn_number:
            self.overlooked = (turn_number, self.rng.random() < 2 * self.level.slip)
        return self.overlooked[1]

    def value(self, cell: CellKey) -> float:
        card = self.known.get(cell)
        return UNKNOWN_VALUE if card is None else VALUES.get(card, UNKNOWN_VALUE)

    def new_race(self) -> None:
        self.ranking = None

    def still_down(self, plan: Decision, legal: list[Action]) -> bool:
        # The planned cell was listed when chosen; in a race cells only leave, each with a
        # ``grabbed`` event that ``observe`` noted: a set lookup instead of a listing scan.
        return tuple(plan.action["cell"]) not in self.taken

    def choose_grab(self, view: dict[str, Any], legal: list[Action]) -> CellKey | None:
        """A good cell by value (never one worth 0 or less), each value raised by a draw of
        up to ``GRAB_SPREAD``: the best remembered cards still come first, but bots that
        remember the same cards do not all reach for the same one in the same order (every
        collision costs its losers a re-aim, so bots crowding one cell at a time would leave
        the others to a person, and the more bots the more so).

        During a race no card goes down and the remembered values of the cells still down do
        not change (only a grabbed cell is forgotten), so the cells are ranked once, at the
        first re-aim after the call, and later re-aims (one per grab) drop the grabbed cells
        from the top of that ranking instead of scoring the whole listing again."""
        ranking = self.ranking
        if ranking is None:
            recalled = self.known.get
            worth = WORTH.get
            slip = self.level.slip > 0.0
            scored = []
            for action in legal:
                if action["type"] == "grab":
                    # tuple() equals ``_key``: the engine lists cells as two plain ints.
                    cell: CellKey = tuple(action["cell"])
                    value = worth(recalled(cell), UNKNOWN_VALUE)
                    if slip:  # an easy bot's memory is hazy: its ranking gets some chance
                        value += self.rng.random() * 3.0
                    if value > 0:
                        scored.append((-value - self.rng.random() * GRAB_SPREAD, cell))
            # Worst first, so the best is popped off the end.
            scored.sort(reverse=True)
            ranking = self.ranking = [cell for _, cell in scored]
            self.taken.clear()
        taken = self.taken
        while ranking and ranking[-1] in taken:
            ranking.pop()
        return ranking[-1] if ranking else None

    def choose_return(self, view: dict[str, Any], owed: int) -> list[str]:
        return sorted(view["hand"], key=lambda c: (VALUES.get(c, 0.0), c))[:owed]

    def choose_turn(self, view: dict[str, Any], legal: list[Action]) -> Action:
        if view["phase"] == "placing" or view["step"] == "expose":
            return legal[0]
        if self.slips():
            return random_move(self.rng, legal)
        castles = view["castles"]
        me = castles[self.seat]
        # Distinct cards in hand order: a set's order would follow the string hash seed and
        # make the bot's choice differ from one process to the next.
        hand = dict.fromkeys(view["hand"])

        def pick(card: str, target: int | None) -> Action | None:
            # Only plays name a card. With none listed every branch below falls back to
            # ``legal[0]``, so the listing needs no separate check for plays.
            for action in legal:
                if action.get("card") == card and action["target"] in (target, None):
                    return self._aim_look(view, action)
            return None

        if me["hp"] <= 12 and "healer" in hand and me["hp"] < view["options"]["castle_hp"]:
            return pick("healer", None) or legal[0]
        if me["hp"] <= 18 and me["ward"] == 0 and "shieldbearer" in hand:
            return pick("shieldbearer", None) or legal[0]
        if AMBUSH in hand and self.known_ambushes(view) == 1:
            return pick(AMBUSH, self.target(castles, AMBUSH)) or legal[0]
        if "thief" in hand and len(hand) <= 2:
            choice = pick("thief", pick_richest(castles, self.seat, self.rng))
            if choice is not None:
                return choice
        damaging = list(filter(DAMAGING.__contains__, hand))
        if damaging:
            # Keep Ambush! cards for calls: among equal damage, the other card goes first.
            best = max(damaging, key=DAMAGE_ORDER.__getitem__)
            return pick(best, self.target(castles, best)) or legal[0]
        spare = next(filter(SPARE.__contains__, hand), None)
        if spare is not None:
            return pick(spare, pick_richest(castles, self.seat, self.rng)) or legal[0]
        return legal[0]

    def target(self, castles: list[dict[str, Any]], card: str) -> int | None:
        """Whom to hit with ``card`` (``bot_targets``), chance weighed by the level."""
        scores = self.grudges.scores(castles, CARDS[card].damage)
        return pick_target(scores, self.rng, self.level.noise)

    def _aim_look(self, view: dict[str, Any], action: Action) -> Action:
        if "look" not in action:
            return action
        unknown = [c["cell"] for c in view["battlefield"] if _key(c["cell"]) not in self.known]
        return {**action, "look": list(unknown[0])} if unknown else action
