"""Ambush! bots: RandomBot and a HeuristicBot that remembers cells, calls, grabs and targets."""

from __future__ import annotations

from operator import countOf, itemgetter
from typing import Any

from engines.ambush.cards import AMBUSH, CARDS
from engines.base import Decision, Rng

Action = dict[str, Any]
CellKey = tuple[int, int]

# How much a card is worth capturing (or keeping at the hand limit); unknown cells sit between.
VALUES: dict[str, float] = {
    "ambush": 9.0,
    "dragon": 8.5,
    "battering_ram": 8.0,
    "treasure": 7.0,
    "knight": 6.0,
    "elven_archer": 5.0,
    "fire_mage": 5.5,
    "healer": 5.0,
    "shieldbearer": 5.0,
    "scout": 4.5,
    "trickster": 4.0,
    "thief": 4.5,
    "footman": 4.0,
    "booby_trap": -5.0,
}
UNKNOWN_VALUE = 3.0
# A remembered card's value, and None (a cell not remembered) worth UNKNOWN_VALUE: one lookup.
_WORTH: dict[str | None, float] = {None: UNKNOWN_VALUE}
_WORTH.update(VALUES)
_CALL: Action = {"type": "call_ambush"}
_ALIVE = itemgetter("alive")  # a C-level accessor for the turn key, built on every re-ask
# The order HeuristicBot plays damaging cards in: most damage, Ambush! cards last among equals
# (kept for calls), then the least valuable; looked up per card instead of rebuilt each turn.
_DAMAGE_ORDER: dict[str, tuple[int, bool, float]] = {
    card_id: (card.damage, card_id != AMBUSH, -VALUES.get(card_id, 0))
    for card_id, card in CARDS.items()
}


def _key(cell: Any) -> CellKey:
    return (int(cell[0]), int(cell[1]))


class _Bot:
    """Shared plumbing: a seeded RNG and plans kept across re-asks until they go stale."""

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat
        self.rng = Rng(seed)
        self.turn_plan: tuple[tuple[Any, ...], Decision] | None = None
        self.call_plan: Decision | None = None
        self.grab_plan: Decision | None = None
        self.race_id: int | None = None
        self.return_plan: Decision | None = None

    def between(self, low: int, high: int) -> int:
        return low + self.rng.randbelow(high - low + 1)

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
        Each plan is kept across re-asks (same ``at_ms``) until it goes stale."""
        if view["phase"] == "over" or not legal:
            return None
        options: list[Decision] = []
        phase = view["phase"]
        if phase == "ambush":
            grab = self._grab(view, legal, now_ms)
            if grab is not None:
                options.append(grab)
        else:
            self.grab_plan = None
            self.race_id = None
        if phase == "returning":
            returning = [a for a in legal if a["type"] == "return"]
            if returning and self.return_plan is None:
                owed = len(returning[0]["cards"])
                action = {"type": "return", "cards": self.choose_return(view, owed)}
                self.return_plan = Decision(action, now_ms + self.between(800, 2500))
            if returning and self.return_plan is not None:
                options.append(self.return_plan)
        else:
            self.return_plan = None
        if view["turn"] == self.seat and phase in ("turn", "placing"):
            key = self.turn_key(view)
            if self.turn_plan is None or self.turn_plan[0] != key:
                action = self.choose_turn(view, legal)
                self.turn_plan = (key, Decision(action, now_ms + self.between(1000, 3000)))
            options.append(self.turn_plan[1])
        # One C-level scan (the engine lists the call as exactly this dict).
        can_call = _CALL in legal
        if not can_call:
            self.call_plan = None
        elif self.wants_call(view):
            if self.call_plan is None:
                self.call_plan = Decision({"type": "call_ambush"}, now_ms + self.call_delay())
            options.append(self.call_plan)
        else:
            self.call_plan = None
        # The earliest plan, the first listed among equals (as ``min`` would pick it).
        earliest: Decision | None = None
        for option in options:
            if earliest is None or option.at_ms < earliest.at_ms:
                earliest = option
        return earliest

    def turn_key(self, view: dict[str, Any]) -> tuple[Any, ...]:
        return (
            view["turn_number"],
            view["phase"],
            view["step"],
            view["placing_left"],
            tuple(view["hand"]),
            len(view["battlefield"]),
            tuple(map(_ALIVE, view["castles"])),
        )

    def _grab(self, view: dict[str, Any], legal: list[Action], now_ms: int) -> Decision | None:
        race = view["race"]
        if self.race_id != race["started_at"]:
            self.race_id = race["started_at"]
            self.grab_plan = None
            first_at = race["started_at"] + self.between(200, 600)
        else:
            first_at = now_ms
        free_at = race["next_free"][self.seat]
        plan = self.grab_plan
        # A planned grab is {"type": "grab", "cell": [x, y]}, exactly as the engine lists
        # grabs, so a C-level list scan says whether its cell is still down.
        if plan is not None and plan.at_ms >= free_at and plan.action in legal:
            return plan
        if plan is not None and plan.at_ms >= free_at:
            at = max(plan.at_ms, now_ms + self.between(60, 200))  # target gone: re-aim
        elif plan is not None:
            at = free_at + self.next_reaction()  # own grab landed: reach again
        else:
            at = first_at
        cell = self.choose_grab(view, legal)
        self.grab_plan = (
            None if cell is None else Decision({"type": "grab", "cell": list(cell)}, at)
        )
        return self.grab_plan

    # Strategy hooks.
    def next_reaction(self) -> int:
        return self.between(200, 600)

    def call_delay(self) -> int:
        return self.between(300, 1500)

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
    """Random legal turns, an occasional call (true or not), random grabs every 200-600 ms."""

    def __init__(self, seat: int, seed: int) -> None:
        super().__init__(seat, seed)
        self.call_turn = -1
        self.calling = False

    def wants_call(self, view: dict[str, Any]) -> bool:
        if view["turn_number"] != self.call_turn:  # one roll per turn, kept across re-asks
            self.call_turn = view["turn_number"]
            self.calling = self.rng.random() < 0.12
        return self.calling

    def call_delay(self) -> int:
        return self.between(300, 4000)

    def call_spent(self) -> None:
        self.calling = False

    def choose_turn(self, view: dict[str, Any], legal: list[Action]) -> Action:
        moves = [a for a in legal if a["type"] not in ("resign", "call_ambush")]
        if self.rng.random() < 0.001:
            return {"type": "resign"}
        if moves and moves[0]["type"] == "pass" and len(moves) > 1 and self.rng.random() > 0.1:
            moves = moves[1:]
        return self.rng.choice(moves) if moves else legal[0]


class HeuristicBot(_Bot):
    """Remembers every card it saw go down, calls on two known Ambush! cards, grabs the best
    cells first, hits the weakest opponent and returns its weakest cards at the limit."""

    def __init__(self, seat: int, seed: int) -> None:
        super().__init__(seat, seed)
        self.known: dict[CellKey, str] = {}

    remembers = frozenset(
        {"exposed", "played", "looked", "placed", "grabbed", "swapped", "shuffled_back"}
    )

    def remember(self, event: dict[str, Any]) -> None:
        kind = event["type"]
        # ``_key`` inline for the frequent kinds (every card down, every grab).
        if kind in ("exposed", "played") or (kind == "looked" and "card" in event):
            x, y = event["cell"]
            self.known[int(x), int(y)] = event["card"]
        elif kind in ("placed", "grabbed"):
            x, y = event["cell"]
            self.known.pop((int(x), int(y)), None)
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
        down = {tuple(c["cell"]) for c in view["battlefield"]}
        return sum(1 for cell in remembered if cell in down)

    def wants_call(self, view: dict[str, Any]) -> bool:
        # Asked on every decision of every turn. The cards still down are among those
        # remembered, so fewer than two remembered Ambush! cards (a C-level count) settle it.
        if countOf(self.known.values(), AMBUSH) < 2:
            return False
        return self.known_ambushes(view) >= 2

    def call_delay(self) -> int:
        return self.between(250, 900)

    def next_reaction(self) -> int:
        return self.between(20, 150)

    def value(self, cell: CellKey) -> float:
        card = self.known.get(cell)
        return UNKNOWN_VALUE if card is None else VALUES.get(card, UNKNOWN_VALUE)

    def choose_grab(self, view: dict[str, Any], legal: list[Action]) -> CellKey | None:
        # Best value first; among equals the smallest (x, y). One pass over the listing (no
        # set, no sort, ``value`` inline): this runs for every re-aim in a race.
        best: CellKey | None = None
        best_value = 0.0
        recalled = self.known.get
        worth = _WORTH.get
        for action in legal:
            if action["type"] == "grab":
                # tuple() equals ``_key``: the engine lists cells as two plain ints.
                cell: CellKey = tuple(action["cell"])
                value = worth(recalled(cell), UNKNOWN_VALUE)
                if value > best_value or (value == best_value and best is not None and cell < best):
                    best, best_value = cell, value
        return best

    def choose_return(self, view: dict[str, Any], owed: int) -> list[str]:
        return sorted(view["hand"], key=lambda c: (VALUES.get(c, 0.0), c))[:owed]

    def choose_turn(self, view: dict[str, Any], legal: list[Action]) -> Action:
        if view["phase"] == "placing" or view["step"] == "expose":
            return legal[0]
        plays = [a for a in legal if a["type"] == "play"]
        if not plays:
            return legal[0]
        me = view["castles"][self.seat]
        foes = [c for c in view["castles"] if c["alive"] and c["seat"] != self.seat]
        weakest = min(foes, key=lambda c: (c["hp"] + c["ward"], c["seat"]))["seat"]
        richest = max(foes, key=lambda c: (c["hand_count"], -c["seat"]))["seat"]
        # Distinct cards in hand order: a set's order would follow the string hash seed and
        # make the bot's choice differ from one process to the next.
        hand = dict.fromkeys(view["hand"])

        def pick(card: str, target: int | None) -> Action | None:
            for action in plays:
                if action["card"] == card and action["target"] in (target, None):
                    return self._aim_look(view, action)
            return None

        if me["hp"] <= 12 and "healer" in hand and me["hp"] < view["options"]["castle_hp"]:
            return pick("healer", None) or legal[0]
        if me["hp"] <= 18 and me["ward"] == 0 and "shieldbearer" in hand:
            return pick("shieldbearer", None) or legal[0]
        if AMBUSH in hand and self.known_ambushes(view) == 1:
            return pick(AMBUSH, weakest) or legal[0]
        if "thief" in hand and len(hand) <= 2:
            choice = pick("thief", richest)
            if choice is not None:
                return choice
        damaging = [c for c in hand if CARDS[c].damage > 0]
        if damaging:
            # Keep Ambush! cards for calls: among equal damage, the other card goes first.
            best = max(damaging, key=_DAMAGE_ORDER.__getitem__)
            return pick(best, weakest) or legal[0]
        spare = [c for c in hand if c not in ("healer", "shieldbearer", "treasure")]
        if spare:
            return pick(spare[0], richest) or legal[0]
        return legal[0]

    def _aim_look(self, view: dict[str, Any], action: Action) -> Action:
        if "look" not in action:
            return action
        unknown = [c["cell"] for c in view["battlefield"] if _key(c["cell"]) not in self.known]
        return {**action, "look": list(unknown[0])} if unknown else action
