"""Castles bots: a random player and a heuristic one that moves, fights and defends its Castle.

Bots read only their view and the legal actions; each keeps its own ``Rng(seed)``.
"""

from __future__ import annotations

from typing import Any

from mypy_extensions import mypyc_attr

from engines.base import Decision
from engines.botkit import DEFAULT_LEVEL, SeededBot, without_resign
from engines.castles.bot_values import (
    ASSASSIN,
    BUILD_VALUE,
    BUILDING,
    CIVILIAN,
    COUNTED_PLAYS,
    LAST_DITCH_HP,
    NO_GAIN,
    RULE_OF_KIND,
    SOLDIER,
    SPY,
    VALUE,
    move_rule,
)

Action = dict[str, Any]


@mypyc_attr(allow_interpreted_subclasses=True)
class _Timed(SeededBot):
    """Keeps one decision per situation so a host asking again gets the same plan."""

    def __init__(self, seat: int, seed: int, level: str = DEFAULT_LEVEL) -> None:
        super().__init__(seat, seed, level)
        self._plan: Decision | None = None

    def observe(self, events: list[dict[str, Any]], view: dict[str, Any]) -> None:
        """Something changed: the next ``decide`` thinks afresh (the view holds all it uses)."""
        self._plan = None

    def _think_ms(self, view: dict[str, Any]) -> int:
        if view["phase"] == "response":
            # The same spread whether or not a Trap is in hand: the delay tells nothing.
            return self.think(600, 2999)
        return self.think(1000, 2999)

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


@mypyc_attr(allow_interpreted_subclasses=True)  # tests subclass it (a compiled build)
class HeuristicBot(_Timed):
    """Scores the legal actions from the open board and plays the best until nothing helps;
    an easy bot slips now and then (a random action but resigning)."""

    def __init__(self, seat: int, seed: int, level: str = DEFAULT_LEVEL) -> None:
        super().__init__(seat, seed, level)
        self._hand: tuple[list[dict[str, Any]], dict[int, str]] | None = None

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        """The best-scoring action (``_Scorer.score``; ties drawn by the bot's Rng), or
        ``legal[0]`` (end the turn) when nothing scores above 0.

        ``legal.turn_actions`` lists end_turn, the plays, the moves, the Actions, resign. The
        Actions and plays are scored first: a move scores at most ``_Scorer.move_ceiling`` and
        an attack 12 or more, so the moves (most of a listing, and the board counts they read)
        are scored only when one of them could still win."""
        if self.slips():
            return self.rng.choice(without_resign(legal) or legal)
        if view["phase"] == "response":
            return self._respond({c["id"]: c for c in view["in_play"]}, legal)
        side = view["side"]
        scorer = _Scorer(view, side, self._hand_kinds(view["hand"]))
        best_score, tied = 0.0, [0]  # indices of the best-scoring actions so far
        moves_end = len(legal) - 1  # resign, scored 0
        act = scorer.act
        while moves_end > 0 and legal[moves_end - 1]["type"] == "act":
            moves_end -= 1
            score = act(legal[moves_end])
            if score > best_score:
                best_score, tied = score, [moves_end]
            elif score == best_score and score > 0:
                tied.append(moves_end)
        moves_start = 1  # after end_turn
        play = scorer.play
        while moves_start < moves_end and legal[moves_start]["type"] == "play":
            score = play(legal[moves_start])
            if score > best_score:
                best_score, tied = score, [moves_start]
            elif score == best_score and score > 0:
                tied.append(moves_start)
            moves_start += 1
        if moves_start < moves_end and best_score <= scorer.move_ceiling():
            best_score, tied = self._moves(scorer, legal, moves_start, moves_end, best_score, tied)
        if len(tied) == 1:
            return legal[tied[0]]
        tied.sort()  # listing order, whatever order they were scored in
        return legal[tied[self.rng.randbelow(len(tied))]]

    @staticmethod
    def _moves(
        scorer: _Scorer, legal: list[Action], start: int, end: int, best: float, tied: list[int]
    ) -> tuple[float, list[int]]:
        """Score ``legal[start:end]``, the moves, into ``best`` and ``tied``, without a call
        each: a card's moves come together, so its own facts are looked up once (``mover``) and
        each destination costs a few comparisons. ``_Scorer.move`` is the same rule, spelled
        out (test_bots.py compares)."""
        scorer.count()
        side = scorer.side
        by_id, mine_by_zone, foes_by_zone = scorer.board, scorer.mine_by_zone, scorer.foes_by_zone
        soldiers, threat = scorer.soldiers, scorer.threat
        home, middle, hand_sizes = scorer.home, scorer.middle, scorer.view["hand_sizes"]
        mover, rule, start_depth, strength, zone, is_archer = -1, NO_GAIN, 0, 0, 0, False
        for index in range(start, end):
            action = legal[index]
            if action["type"] != "move":  # not in a listing of this engine; scored plainly
                score = scorer.score(action)
            else:
                card_id = action["card"]
                if card_id != mover:
                    mover = card_id
                    card = by_id[card_id]
                    zone = card["zone"]
                    start_depth = zone if side == 0 else 5 - zone
                    rule = RULE_OF_KIND.get(card["kind"]) or move_rule(card)
                    is_archer = card["kind"] == "archer"
                    strength = mine_by_zone[zone]
                if rule == NO_GAIN:
                    continue
                to: int = action["to"]
                to_depth = to if side == 0 else 5 - to
                gain = to_depth - start_depth
                if rule == SOLDIER:
                    foes_there = foes_by_zone[to]
                    if threat and gain < 0 and to_depth >= 1:
                        score = 6.0  # fall back to defend the Castle
                    elif gain > 0 and not (is_archer and to_depth > 3):
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
            if score > best:
                best, tied = score, [index]
            elif score == best and score > 0:
                tied.append(index)
        return best, tied

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
        self.home = 0 if side == 0 else 5
        self.middle = 1 if side == 0 else 4
        self.board = {card["id"]: card for card in view["in_play"]}  # id -> entry
        self.counted = False  # the counts below are filled by ``count``, for moves and a few plays
        self.foes_by_zone = self.mine_by_zone = [0] * 6  # units per zone 0..5
        self.soldiers = self.enemy_soldiers = self.threat = self.ready_shooters = 0
        self._burnable: list[list[dict[str, Any]]] | None = None  # by zone, for Incendiarism

    def move_ceiling(self) -> float:
        """No move scores more: a Soldier's 6 + 0.1 per own unit in its zone (``move``)."""
        return 6.0 + 0.1 * len(self.board)

    def count(self) -> None:
        """One pass over the board for every count the moves and some plays read; a decision
        whose Actions outscore every move never needs it."""
        if self.counted:
            return
        self.counted = True
        side = self.side
        foes_by_zone = [0] * 6  # cards in play always have a zone
        mine_by_zone = [0] * 6
        soldiers = enemy_soldiers = threat = ready_shooters = 0
        for card in self.view["in_play"]:
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
        if actor["kind"] in ("mason", "medic"):
            if target["side"] != self.side:
                return -1.0  # never mend the enemy's cards
            if target["kind"] == "castle":  # 1 HP of 50 is worth an Action only at the end
                return 7.0 if target["hp"] <= LAST_DITCH_HP else 0.0
            return 4.0
        if target["side"] == self.side:
            return -1.0  # never shoot your own cards
        value = VALUE.get(target["kind"], 2)
        kill = target["hp"] <= 3 and target["kind"] != "castle"
        return 10.0 + value + (6 if kill else 0)

    def move(self, action: Action) -> float:
        self.count()
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
        if gain > 0 and not (card["kind"] == "archer" and to_depth > 3):
            strength = self.mine_by_zone[zone]
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
        if kind == "mason":  # not the Medic: 1 HP for a Soldier is seldom worth its Action
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
        if kind in COUNTED_PLAYS:
            self.count()
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
