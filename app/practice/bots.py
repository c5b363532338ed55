"""The practice opponents: a gentle, predictable Ambush! bot, the heuristic bot elsewhere."""

from __future__ import annotations

from typing import Any

from engines.base import Bot, Decision, Engine

Action = dict[str, Any]
Cell = tuple[int, int]

PRACTICE_KIND = "practice"

# Cards the gentle bot plays, first listed first: low damage, no tricks that would hide cards
# from the newcomer (Elven Archer, Trickster), no theft, never an Ambush! card of its own.
GENTLE_ORDER = (
    "footman", "scout", "fire_mage", "healer", "shieldbearer", "knight", "treasure",
    "booby_trap", "battering_ram", "dragon",
)  # fmt: skip


class GentleAmbushBot:
    """An Ambush! opponent for the practice round, slow and the same every time.

    It never calls Ambush!, thinks ``THINK_MS`` before each move, plays the first card of
    ``GENTLE_ORDER`` it holds (else passes), and in a race waits ``FIRST_GRAB_MS`` after the
    call, then grabs at most ``MAX_GRABS`` cards ``NEXT_GRAB_MS`` apart, never a cell where it
    saw an Ambush! card go down: the newcomer who remembers them gets both."""

    THINK_MS = 1500
    FIRST_GRAB_MS = 3000
    NEXT_GRAB_MS = 2500
    MAX_GRABS = 2
    RETURN_MS = 1500

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat
        self.seen: dict[Cell, str] = {}
        self.plan: tuple[tuple[Any, ...], Decision] | None = None

    def observe(self, events: list[dict[str, Any]], view: dict[str, Any]) -> None:
        for event in events:
            kind = event["type"]
            if kind in ("exposed", "played") and "cell" in event:
                self.seen[cell_of(event["cell"])] = event["card"]
            elif kind in ("grabbed", "placed"):
                self.seen.pop(cell_of(event["cell"]), None)
            elif kind == "swapped":
                first, second = (cell_of(c) for c in event["cells"])
                a, b = self.seen.pop(first, None), self.seen.pop(second, None)
                if a is not None:
                    self.seen[second] = a
                if b is not None:
                    self.seen[first] = b
            elif kind == "shuffled_back":
                self.seen.clear()

    def decide(self, view: dict[str, Any], legal: list[Action], now_ms: int) -> Decision | None:
        phase = view["phase"]
        if phase == "over" or not legal:
            return None
        if phase == "ambush":
            return self.grab(view, legal, now_ms)
        if phase == "returning":
            returning = [a for a in legal if a["type"] == "return"]
            return self.kept(("return", view["turn_number"]), returning, now_ms, self.RETURN_MS)
        if view["turn"] != self.seat or phase not in ("turn", "placing"):
            self.plan = None
            return None
        key = (view["turn_number"], phase, view["step"], view["placing_left"], len(view["hand"]))
        return self.kept(key, [self.choose_turn(view, legal)], now_ms, self.THINK_MS)

    def kept(
        self, key: tuple[Any, ...], choices: list[Action], now_ms: int, delay: int
    ) -> Decision | None:
        """The plan for ``key``, made once (same ``at_ms`` on every re-ask)."""
        if not choices:
            return None
        if self.plan is None or self.plan[0] != key:
            self.plan = (key, Decision(choices[0], now_ms + delay))
        return self.plan[1]

    def choose_turn(self, view: dict[str, Any], legal: list[Action]) -> Action:
        if view["phase"] == "placing" or view["step"] == "expose":
            return next(a for a in legal if a["type"] != "resign")
        plays = [a for a in legal if a["type"] == "play"]
        for card in GENTLE_ORDER:
            for action in plays:
                if action["card"] == card:
                    return action
        return next((a for a in legal if a["type"] == "pass"), legal[0])

    def grab(self, view: dict[str, Any], legal: list[Action], now_ms: int) -> Decision | None:
        race = view["race"]
        mine = view["castles"][self.seat]["captured_count"]
        if mine >= self.MAX_GRABS:
            return None
        cells = sorted(
            cell_of(a["cell"])
            for a in legal
            if a["type"] == "grab" and self.seen.get(cell_of(a["cell"])) != "ambush"
        )
        if not cells:
            return None
        at = race["started_at"] + self.FIRST_GRAB_MS + mine * self.NEXT_GRAB_MS
        at = max(at, race["next_free"][self.seat])
        return Decision({"type": "grab", "cell": list(cells[0])}, at)


def cell_of(cell: Any) -> Cell:
    return (int(cell[0]), int(cell[1]))


def practice_bot(engine: Engine, seat: int, seed: int, heuristic: Bot) -> Bot:
    """The practice opponent for ``engine``: the gentle bot in Ambush!, else ``heuristic``
    (the engine's own heuristic bot, made by the caller)."""
    if engine.id == "ambush":
        return GentleAmbushBot(seat, seed)
    return heuristic
