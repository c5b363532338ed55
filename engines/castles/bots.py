"""Castles bots: a random player and a heuristic one that moves, fights and defends its Castle.

Bots read only their view and the legal actions; each keeps its own ``Rng(seed)``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.base import Decision, Rng
from engines.botkit import SeededBot, without_resign

Action = dict[str, Any]
VALUE = {  # how much a side wants an enemy card gone
    "castle": 9,
    "general": 7,
    "wizard": 7,
    "spearman": 5,
    "archer": 5,
    "catapult": 4,
    "cannon": 3,
    "siege_tower": 4,
    "builder": 3,
    "armoury": 3,
    "medic": 2,
    "mason": 2,
    "assassin": 4,
    "spy": 2,
    "wall": 2,
    "watchtower": 2,
}
BUILD_VALUE = {
    "wall": 9,
    "armoury": 7,
    "catapult": 6,
    "cannon": 4,
    "watchtower": 3,
    "siege_tower": 5,
}


class _Timed(SeededBot):
    """Keeps one decision per situation so a host asking again gets the same plan."""

    def __init__(self, seat: int, seed: int) -> None:
        super().__init__(seat, seed)
        self._plan: Decision | None = None

    def observe(self, events: list[dict[str, Any]], view: dict[str, Any]) -> None:
        """Something changed: the next ``decide`` thinks afresh (the view holds all it uses)."""
        self._plan = None

    def _think_ms(self, view: dict[str, Any]) -> int:
        if view["phase"] == "response":
            # The same spread whether or not a Trap is in hand: the delay tells nothing.
            return 600 + self.rng.randbelow(2400)
        return 1000 + self.rng.randbelow(2000)

    def decide(self, view: dict[str, Any], legal: list[Action], now_ms: int) -> Decision | None:
        if not legal:
            return None
        if self._plan is not None and self._plan.action in legal:
            return self._plan
        self._plan = Decision(self.choose(view, legal), now_ms + self._think_ms(view))
        return self._plan

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        raise NotImplementedError


class RandomBot(_Timed):
    """Ends its turn a quarter of the time, otherwise any legal action but resigning."""

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        if self.rng.randbelow(4) == 0:
            return legal[0]
        options = without_resign(legal)
        return self.rng.choice(options)


class HeuristicBot(_Timed):
    """Scores each legal action from the open board and plays the best until nothing helps."""

    def __init__(self, seat: int, seed: int) -> None:
        super().__init__(seat, seed)
        self._hand: tuple[list[dict[str, Any]], dict[int, str]] | None = None

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        if view["phase"] == "response":
            return self._respond({c["id"]: c for c in view["in_play"]}, legal)
        scorer = _Scorer(view, view["side"], self._hand_kinds(view["hand"]))
        raters = RATERS
        rng = self.rng
        # The best so far scores ``best_score`` plus a tie-break noise in [0, 0.01) drawn when it
        # became the best. The Rng is counter-based, so the draw only advances the position
        # here and its value is computed when a later score comes close enough for it to
        # matter (rarely: scores step by 0.1 or more); the choices and draws are unchanged.
        best, best_score, noise_at = legal[0], 0.0, -1
        for action in legal:
            rate = raters.get(action["type"])  # end_turn and resign score 0: never the best
            if rate is not None:
                score = rate(scorer, action)
                if score > best_score:
                    if noise_at >= 0 and score < best_score + 0.02:
                        noisy = best_score + Rng(rng.seed, noise_at).random() * 0.01
                        if not score > noisy:
                            continue
                    best, best_score, noise_at = action, score, rng.position
                    rng.position += 1  # the noise draw, its value computed only if needed
        return best

    def _hand_kinds(self, hand: list[dict[str, Any]]) -> dict[int, str]:
        """Card id -> kind for the hand; the engine hands out the same list object while the
        hand stays the same (and never changes it), so the map is reused until then."""
        kept = self._hand
        if kept is None or kept[0] is not hand:
            kept = self._hand = (hand, {c["id"]: c["kind"] for c in hand})
        return kept[1]

    def _respond(self, board: dict[int, dict[str, Any]], legal: list[Action]) -> Action:
        scored = [
            (VALUE.get(board[a["target"]]["kind"], 1) + (0.5 if a["type"] == "trap" else 0), a)
            for a in legal
            if a["type"] in ("trap", "strike") and a["target"] in board
        ]
        return max(scored, key=lambda pair: pair[0])[1] if scored else legal[0]


class _Scorer:
    """Reads one view once so each legal action costs a few dictionary lookups to score."""

    def __init__(self, view: dict[str, Any], side: int, hand: dict[int, str]) -> None:
        self.view = view
        self.side = side
        self.hand = hand
        self.fwd = 1 if side == 0 else -1
        self.home = 0 if side == 0 else 5
        self.middle = self.home + self.fwd
        self.enemy_middle = 5 - self.middle
        # One pass over the board for every count the scores read (locals: this runs before
        # every decision).
        foes_by_zone = [0] * 6  # units per zone 0..5 (cards in play always have a zone)
        mine_by_zone = [0] * 6
        soldiers = enemy_soldiers = threat = ready_shooters = 0
        board: dict[int, dict[str, Any]] = {}  # id -> entry, filled in the same pass
        self.board = board
        for card in view["in_play"]:
            board[card["id"]] = card
            card_type = card["type"]
            zone = card["zone"]
            if card["side"] == side:
                if card_type == "soldier":
                    mine_by_zone[zone] += 1
                    soldiers += 1
                    if card["acts"] > 0:
                        ready_shooters += 1
                elif card_type == "civilian" or card_type == "special":
                    mine_by_zone[zone] += 1
            elif card_type == "soldier":
                foes_by_zone[zone] += 1
                enemy_soldiers += 1
                if (zone if side == 0 else 5 - zone) <= 2:  # within our half
                    threat += 1
            elif card_type == "civilian" or card_type == "special":
                foes_by_zone[zone] += 1
        self.foes_by_zone = foes_by_zone
        self.mine_by_zone = mine_by_zone
        self.soldiers = soldiers
        self.enemy_soldiers = enemy_soldiers
        self.threat = threat
        self.ready_shooters = ready_shooters

    def depth(self, zone: int) -> int:
        return zone if self.side == 0 else 5 - zone

    def score(self, action: Action) -> float:
        rate = RATERS.get(action["type"])
        return 0.0 if rate is None else rate(self, action)

    def _act(self, action: Action) -> float:
        actor = self.board[action["card"]]
        if "build" in action:
            return BUILD_VALUE.get(self.hand.get(action["build"], ""), 1) + 1
        if actor["kind"] == "spy":
            return 3.0
        target = self.board.get(action.get("target", -1))
        if target is None:
            return 0.0
        if target["side"] == self.side:
            if actor["kind"] in ("mason", "medic"):
                return 4.0 + (3 if target["kind"] == "castle" else 0)
            return -1.0  # never shoot your own cards
        value = VALUE.get(target["kind"], 2)
        kill = target["hp"] <= 3 and target["kind"] != "castle"
        return 10.0 + value + (6 if kill else 0)

    def _move(self, action: Action) -> float:
        card = self.board[action["card"]]
        to: int = action["to"]
        to_depth = to if self.side == 0 else 5 - to  # self.depth, inlined: this runs most
        zone: int = card["zone"]
        gain = to_depth - (zone if self.side == 0 else 5 - zone)
        kind = card["kind"]
        if kind in ("spy", "assassin"):
            if kind == "spy" and self.view["hand_sizes"] and gain > 0:
                return 2.0 + gain
            if kind == "assassin" and gain > 0 and to_depth <= 5 and self.soldiers >= 2:
                return 1.0 + gain
            return 0.0
        if kind in ("general", "wizard"):
            return 0.0
        if card["type"] == "civilian":
            return 1.0 if card["zone"] == self.home and to == self.middle else 0.0
        if card["type"] == "building":
            return 3.0 if gain > 0 and to_depth <= 3 else 0.0
        foes_there: int = self.foes_by_zone[to]
        if self.threat and gain < 0 and to_depth >= 1:
            return 6.0  # fall back to defend the Castle
        if gain > 0:
            if kind == "archer" and to_depth > 3:
                return 0.0
            strength: int = self.mine_by_zone[zone]
            if self.soldiers >= 4 or foes_there or to_depth <= 2:
                return 2.0 + gain + (2 if foes_there else 0) + 0.1 * strength
        return 0.0

    def _play(self, action: Action) -> float:
        kind = self.hand.get(action["card"], "")
        zone = action.get("zone")
        if kind in ("spearman", "archer"):
            return 5.0 if zone == self.middle else 0.5
        if kind == "builder":
            wants = any(k in BUILD_VALUE for k in self.hand.values())
            return (4.0 if wants else 1.0) if zone == self.home else 0.0
        if kind in ("mason", "medic"):
            return 2.0 if zone == self.middle else 0.0
        return self._card_effect(kind, action)

    def _card_effect(self, kind: str, action: Action) -> float:
        target = self.board.get(action.get("target", -1))
        if kind == "lightning_storm":
            return self._area([c for c in self.board.values() if self.depth(c["zone"]) >= 3])
        if kind == "plague":
            zone = 5 - self.home
            return self._area(
                [
                    c
                    for c in self.board.values()
                    if c["zone"] == zone and c["type"] in ("soldier", "civilian")
                ]
            )
        if kind == "incendiarism":
            zone = action["zone"]
            return self._area(
                [c for c in self.board.values() if c["zone"] == zone and c["type"] != "building"]
            )
        if kind == "repair" and target is not None and target["side"] == self.side:
            return 6.0 if target["max_hp"] - target["hp"] >= 5 else 0.0
        if kind == "medicine" and target is not None and target["side"] == self.side:
            return 1.0
        if kind == "rout" and target is not None:
            return 6.0
        if kind == "resurrection":
            return 6.0
        if kind == "ambush":
            return 7.0 if self.ready_shooters >= 2 and self.enemy_soldiers else 0.0
        if kind == "charge" and target is not None and target["side"] == self.side:
            return 5.0 if target["acts"] > 0 and target["moves"] > 0 else 0.0
        if kind == "arrow_rain":
            return 6.0 if self.threat else 0.0
        if kind == "rally_forces":
            return 2.0 if self.threat else 0.0
        return 0.0

    def _area(self, hit: list[dict[str, Any]]) -> float:
        worth = 0.0
        for card in hit:
            sign = 1 if card["side"] != self.side else -1.2
            worth += sign * VALUE.get(card["kind"], 2)
        return worth - 4


# The rater of each action type, unbound (one table, not three bound methods per decision).
RATERS: dict[str, Callable[[_Scorer, Action], float]] = {
    "act": _Scorer._act,
    "move": _Scorer._move,
    "play": _Scorer._play,
}
