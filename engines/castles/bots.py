"""Castles bots: a random player and a heuristic one that moves, fights and defends its Castle.

Bots read only their view and the legal actions; each keeps its own ``Rng(seed)``.
"""

from __future__ import annotations

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
        side = view["side"]
        scorer = _Scorer(view, side, self._hand_kinds(view["hand"]))
        act, play = _Scorer.act, _Scorer.play
        rng = self.rng
        # Moves, most of a listing, are scored here without a call each: a card's moves come
        # together, so its own facts are looked up once (``mover``) and each destination costs
        # a few comparisons. ``_Scorer.move`` is the same rule, spelled out (test_bots.py compares).
        by_id, mine_by_zone, foes_by_zone = scorer.board, scorer.mine_by_zone, scorer.foes_by_zone
        soldiers, threat = scorer.soldiers, scorer.threat
        home, middle, hand_sizes = scorer.home, scorer.middle, view["hand_sizes"]
        mover, rule, start, strength, zone, is_archer = -1, NO_GAIN, 0, 0, 0, False
        # The best so far scores ``best_score`` plus a tie-break noise in [0, 0.01) drawn when it
        # became the best. The Rng is counter-based, so the draw only advances the position
        # here and its value is computed when a later score comes close enough for it to
        # matter (rarely: scores step by 0.1 or more); the choices and draws are unchanged.
        best, best_score, noise_at = legal[0], 0.0, -1
        for action in legal:
            kind = action["type"]
            if kind == "move":
                card_id = action["card"]
                if card_id != mover:
                    mover = card_id
                    card = by_id[card_id]
                    zone = card["zone"]
                    start = zone if side == 0 else 5 - zone
                    rule = RULE_OF_KIND.get(card["kind"]) or move_rule(card)
                    is_archer = card["kind"] == "archer"
                    strength = mine_by_zone[zone]
                if rule == NO_GAIN:
                    continue
                to: int = action["to"]
                to_depth = to if side == 0 else 5 - to
                gain = to_depth - start
                if rule == SOLDIER:
                    foes_there = foes_by_zone[to]
                    if threat and gain < 0 and to_depth >= 1:
                        score = 6.0  # fall back to defend the Castle
                    elif (
                        gain > 0
                        and not (is_archer and to_depth > 3)
                        and (soldiers >= 4 or foes_there or to_depth <= 2)
                    ):
                        score = 2.0 + gain + (2 if foes_there else 0) + 0.1 * strength
                    else:
                        continue
                elif rule == CIVILIAN:
                    if zone != home or to != middle:
                        continue
                    score = 1.0
                elif gain <= 0:
                    continue  # the Spy, the Assassin and Buildings score advances only
                elif rule == BUILDING:
                    if to_depth > 3:
                        continue
                    score = 3.0
                elif rule == SPY:
                    if not hand_sizes:
                        continue
                    score = 2.0 + gain
                else:  # the Assassin
                    if to_depth > 5 or soldiers < 2:
                        continue
                    score = 1.0 + gain
            elif kind == "act":
                score = act(scorer, action)
            elif kind == "play":
                score = play(scorer, action)
            else:
                continue  # end_turn and resign score 0: never the best
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


# How a card's move is scored: by kind for the Spy, Assassin, General and Wizard, else by type
# (any other card by the Soldiers' rule). Nonzero: ``choose`` reads the memo with ``or``.
NO_GAIN, SOLDIER, SPY, ASSASSIN, CIVILIAN, BUILDING = range(1, 7)
KIND_MOVE_RULES = {"spy": SPY, "assassin": ASSASSIN, "general": NO_GAIN, "wizard": NO_GAIN}
TYPE_MOVE_RULES = {"civilian": CIVILIAN, "building": BUILDING}
RULE_OF_KIND: dict[str, int] = {}  # a kind's rule, filled as kinds are met (a kind has one type)


def move_rule(card: dict[str, Any]) -> int:
    """The rule that scores moves of ``card`` (kept in RULE_OF_KIND)."""
    rule = KIND_MOVE_RULES.get(card["kind"])
    if rule is None:
        rule = TYPE_MOVE_RULES.get(card["type"], SOLDIER)
    RULE_OF_KIND[card["kind"]] = rule
    return rule


class _Scorer:
    """Reads one view once so each legal action costs a few dictionary lookups to score."""

    def __init__(self, view: dict[str, Any], side: int, hand: dict[int, str]) -> None:
        self.view = view
        self.side = side
        self.hand = hand
        self.home = 0 if side == 0 else 5
        self.middle = 1 if side == 0 else 4
        # One pass over the board for every count the scores read (locals: this runs before
        # every decision). Counting only the entries changed since the last decision is no
        # cheaper: finding them costs a pass too, and a third of the decisions follow a card
        # entering or leaving play.
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
        self._burnable: list[list[dict[str, Any]]] | None = None  # by zone, for Incendiarism

    def depth(self, zone: int) -> int:
        return zone if self.side == 0 else 5 - zone

    def score(self, action: Action) -> float:
        """Any action's score; ``choose`` scores moves inline by the same rule (``move``)."""
        kind = action["type"]
        if kind == "move":
            return self.move(action)
        if kind == "act":
            return self.act(action)
        return self.play(action) if kind == "play" else 0.0  # end_turn, resign: 0

    def act(self, action: Action) -> float:
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

    def move(self, action: Action) -> float:
        card = self.board[action["card"]]
        to: int = action["to"]
        to_depth = self.depth(to)
        zone: int = card["zone"]
        gain = to_depth - self.depth(zone)
        rule = move_rule(card)
        if rule == NO_GAIN:
            return 0.0
        if rule != SOLDIER:
            return self.other_move(rule, zone, to, gain, to_depth)
        foes_there = self.foes_by_zone[to]
        if self.threat and gain < 0 and to_depth >= 1:
            return 6.0  # fall back to defend the Castle
        if gain > 0:
            if card["kind"] == "archer" and to_depth > 3:
                return 0.0
            strength = self.mine_by_zone[zone]
            if self.soldiers >= 4 or foes_there or to_depth <= 2:
                return 2.0 + gain + (2 if foes_there else 0) + 0.1 * strength
        return 0.0

    def other_move(self, rule: int, zone: int, to: int, gain: int, to_depth: int) -> float:
        """A move of the Spy, the Assassin, a Civilian or a Building (``rule``)."""
        if rule == SPY:
            return 2.0 + gain if self.view["hand_sizes"] and gain > 0 else 0.0
        if rule == ASSASSIN:
            return 1.0 + gain if gain > 0 and to_depth <= 5 and self.soldiers >= 2 else 0.0
        if rule == CIVILIAN:
            return 1.0 if zone == self.home and to == self.middle else 0.0
        return 3.0 if gain > 0 and to_depth <= 3 else 0.0  # a Building

    def play(self, action: Action) -> float:
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
        in_play = self.view["in_play"]  # the board in id order: area sums add up in that order
        if kind == "lightning_storm":
            return self._area([c for c in in_play if self.depth(c["zone"]) >= 3])
        if kind == "plague":
            zone = 5 - self.home
            return self._area(
                [c for c in in_play if c["zone"] == zone and c["type"] in ("soldier", "civilian")]
            )
        if kind == "incendiarism":  # listed for each of the six zones: the board sorted once
            burnable = self._burnable
            if burnable is None:
                burnable = self._burnable = [[] for _ in range(6)]
                for card in in_play:
                    if card["type"] != "building":
                        burnable[card["zone"]].append(card)
            return self._area(burnable[action["zone"]])
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
