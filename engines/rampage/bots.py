"""Castle Rampage bots: a random one and a greedy heuristic one, both seeing only their view."""

from __future__ import annotations

from typing import Any

from engines.base import Decision
from engines.botkit import DEFAULT_LEVEL, SeededBot, without_resign
from engines.rampage.cards import CARD_BY_ID, CARDS, Card, card_of
from engines.rampage.legal import RESIGN

THINK_MIN_MS = 1000
THINK_SPREAD_MS = 2000
# How much of an attack's strength is wasted on average against unseen defenders.
ATTACK_WASTE = 1.3
CASTLE_WEIGHT = 1.5
PERMANENT_VALUES = {"banner": 3.0, "palisade": 2.5, "watchtower": 3.0, "barracks": 3.5}
EFFECT_VALUES = {
    "priest": 2.0,
    "archer": 2.5,
    "fire_arrows": 1.5,
    "earthquake": 1.0,
    "bricklayer": 2.0,
    "sapper": 2.5,
    "thief": 1.5,
    "summoner": 1.0,
    "jester": 3.0,
}


def play_value(card: Card) -> float:
    """A rough worth of holding ``card`` to play later (what discarding or burying it costs)."""
    if card.purple:
        return 0.5 if card.effect == "ogre" else 0.0
    if card.permanent:
        return PERMANENT_VALUES[card.effect]
    value = EFFECT_VALUES.get(card.effect, 0.0)
    if card.attack is not None:
        value = max(value, card.attack - ATTACK_WASTE - 0.8 * card.cost)
    if card.effect == "draw":
        value += 1.2 * card.amount - 0.8 * card.cost
    if card.scheme is not None:
        value = card.attack - ATTACK_WASTE - 2.0 if card.attack else 0.0
    return max(value, 0.0)


VALUES = {kind: play_value(card) for kind, card in CARDS.items()}
# The same worth by instance id: every legal action is scored, each paid card looked up.
VALUE_BY_ID = {card_id: VALUES[card.kind] for card_id, card in CARD_BY_ID.items()}
GATE_BY_ID = {card_id: card.gate for card_id, card in CARD_BY_ID.items()}
CASTLE_BY_ID = {card_id: card.castle for card_id, card in CARD_BY_ID.items()}
# Cards whose play score depends on the action's fields, not only on the card (see
# ``HeuristicBot._best_turn_action``).
_ACTION_DEPENDENT = frozenset(
    card_id
    for card_id, card in CARD_BY_ID.items()
    if card.scheme is not None or card.effect == "fire_arrows"
)


def _think(bot: SeededBot, now_ms: int) -> int:
    return now_ms + bot.think(THINK_MIN_MS, THINK_MIN_MS + THINK_SPREAD_MS)


class RandomBot(SeededBot):
    """Uniform among legal actions; ends its turn only one time in four when it could act."""

    def decide(
        self, view: dict[str, Any], legal: list[dict[str, Any]], now_ms: int
    ) -> Decision | None:
        choices = without_resign(legal)
        if not choices:
            return None
        others = [a for a in choices if a["type"] != "end_turn"]
        if others and (len(others) == len(choices) or self.rng.randbelow(4)):
            choices = others
        return Decision(self.rng.choice(choices), _think(self, now_ms))


class HeuristicBot(SeededBot):
    """Greedy: scores each legal action from its view and what attacks have revealed; an easy
    bot slips now and then (a random action but resigning).

    It remembers a defender that held an attack (it went back on top face down, seen by both
    players) until that structure loses its top card.
    """

    def __init__(self, seat: int, seed: int, level: str = DEFAULT_LEVEL) -> None:
        super().__init__(seat, seed, level)
        self.known_top: dict[tuple[int, str], str] = {}
        # The last set-up pick: (dealt cards, listing length) -> index. The seat that splits
        # second is asked again with the same deal after the other seat's split.
        self.setup_pick: tuple[tuple[str, ...], int, int] | None = None

    def observe(self, events: list[dict[str, Any]], view: dict[str, Any]) -> None:
        for event in events:
            kind = event.get("type")
            if kind == "attack_ended" and "repelled_by" in event:
                self.known_top[(event["target"], event["structure"])] = event["repelled_by"]
            elif kind == "destroyed":
                self.known_top.pop((event["seat"], event["structure"]), None)

    def decide(
        self, view: dict[str, Any], legal: list[dict[str, Any]], now_ms: int
    ) -> Decision | None:
        # Resign is listed last, once: slicing it off is ``without_resign`` without a scan.
        choices = legal[:-1] if legal and legal[-1] is RESIGN else without_resign(legal)
        if not choices:
            return None
        if self.slips():
            best = self.rng.choice(choices)
        elif choices[0]["type"] == "setup":
            best = self._best_setup(choices, view["dealt"] or [])
        else:
            best = self._best_turn_action(view, choices)
        return Decision(best, _think(self, now_ms))

    def _best_setup(self, choices: list[dict[str, Any]], dealt: list[str]) -> dict[str, Any]:
        """``max(choices, key=_score_setup)`` inlined (thirty splits per deal): the first best
        split wins."""
        gate_of, castle_of, value_of = (
            GATE_BY_ID.__getitem__,
            CASTLE_BY_ID.__getitem__,
            VALUE_BY_ID.__getitem__,
        )
        deal = tuple(dealt)
        pick = self.setup_pick
        if pick is not None and pick[0] == deal and pick[1] == len(choices):
            return choices[pick[2]]  # the listing of a deal is always the same
        best = choices[0]
        best_index, best_score = 0, 0.0
        for index, action in enumerate(choices):
            gate, castle = action["gate"], action["castle"]
            aside = [c for c in dealt if c not in gate and c not in castle]
            # The same sums in the same order as ``_score_setup``.
            score = sum(map(gate_of, gate)) + 1.3 * sum(map(castle_of, castle))
            score += 1.5 * sum(map(value_of, aside))
            if index == 0 or score > best_score:
                best, best_index, best_score = action, index, score
        self.setup_pick = (deal, len(choices), best_index)
        return best

    def _best_turn_action(
        self, view: dict[str, Any], choices: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """``max(choices, key=score)`` with the same scores, cheaper: this runs for every
        decision and the listings hold a dozen actions each, mostly defences and plays of the
        same few cards, so what depends only on the view is worked out once per decision."""
        me = view["players"][self.seat]
        # _score_defend's structure terms, the same arithmetic in the same order.
        castle_extra = max(0, 4 - me["castle_size"]) * 0.6
        gate_extra = 0.5 if me["gate_size"] == 0 else 0.0
        # A play's score before its payment depends only on the card, except for Schemes
        # (a bonus unit adds strength) and Fire Arrows (the target's worth).
        play_scores: dict[str, float] = {}
        best = choices[0]
        best_score = self.score(view, best)
        for action in choices[1:]:
            kind = action["type"]
            if kind == "defend":
                card_id = action["card"]
                if action["to"] == "castle":
                    value = CASTLE_BY_ID[card_id] * 1.2 + castle_extra
                else:
                    value = GATE_BY_ID[card_id] + gate_extra
                score = value - VALUE_BY_ID[card_id] - 0.5
            elif kind == "play":
                card_id = action["card"]
                if card_id in _ACTION_DEPENDENT:
                    score = self._score_play(view, action)
                else:
                    cached = play_scores.get(card_id)
                    if cached is None:
                        cached = play_scores[card_id] = self._score_play(view, action)
                    score = cached
            else:
                score = self.score(view, action)
                if score > best_score:
                    best, best_score = action, score
                continue
            pay = action.get("pay")
            if pay:
                score -= 0.7 * sum([VALUE_BY_ID[c] for c in pay])
            if score > best_score:
                best, best_score = action, score
        return best

    def score(self, view: dict[str, Any], action: dict[str, Any]) -> float:
        kind = action["type"]
        if kind == "end_turn":
            return 0.0
        if kind == "setup":
            return self._score_setup(action, view["dealt"] or [])
        pay = action.get("pay")
        pay_cost = sum([VALUE_BY_ID[c] for c in pay]) if pay else 0
        if kind == "defend":
            return self._score_defend(view, action) - 0.7 * pay_cost
        return self._score_play(view, action) - 0.7 * pay_cost

    @staticmethod
    def _score_setup(action: dict[str, Any], dealt: list[str]) -> float:
        gate, castle = action["gate"], action["castle"]
        aside = [c for c in dealt if c not in gate and c not in castle]
        # C-level sums over the per-id tables, in the same order (thirty splits per deal).
        score = sum(map(GATE_BY_ID.__getitem__, gate)) + 1.3 * sum(
            map(CASTLE_BY_ID.__getitem__, castle)
        )
        score += 1.5 * sum(map(VALUE_BY_ID.__getitem__, aside))
        return score

    def _score_defend(self, view: dict[str, Any], action: dict[str, Any]) -> float:
        card = CARD_BY_ID[action["card"]]
        me = view["players"][self.seat]
        structure = action["to"]
        value = float(card.defence(structure))
        if structure == "castle":
            value *= 1.2
            value += max(0, 4 - me["castle_size"]) * 0.6
        elif me["gate_size"] == 0:
            value += 0.5
        return value - VALUES[card.kind] - 0.5

    def _score_play(self, view: dict[str, Any], action: dict[str, Any]) -> float:
        card = CARD_BY_ID[action["card"]]
        me = view["players"][self.seat]
        them = view["players"][1 - self.seat]
        if card.permanent:
            return PERMANENT_VALUES[card.effect]
        if card.effect == "summoner":
            if me["castle_size"] <= 1:
                return -100.0
            if them["castle_size"] == 1:
                return 100.0
            return 0.5 * float(me["castle_size"] - them["castle_size"]) - 0.5
        if card.effect == "jester" and me["castle_size"] <= 2:
            return -100.0
        if card.attack is not None:
            return self._score_attack(view, action, card)
        if card.effect == "draw":
            return 1.5 * card.amount + 1.0
        if card.effect == "priest":
            return 0.45 * float(them["hand_size"]) - 0.5
        if card.effect == "fire_arrows":
            return PERMANENT_VALUES[card_of(action["target"]).effect] - 0.5
        if card.effect == "earthquake":
            mine = sum(PERMANENT_VALUES[card_of(p).effect] for p in me["permanents"])
            theirs = sum(PERMANENT_VALUES[card_of(p).effect] for p in them["permanents"])
            return theirs - mine - 0.5
        if card.effect == "sapper":
            return 2.5 * (CASTLE_WEIGHT if them["gate_size"] == 0 else 1.0)
        if card.effect == "thief":
            return 1.5 if them["hand_size"] else -1.0
        if card.effect == "bricklayer":
            return 2.0
        return 0.0

    def _score_attack(self, view: dict[str, Any], action: dict[str, Any], card: Card) -> float:
        me = view["players"][self.seat]
        them = view["players"][1 - self.seat]
        foe = 1 - self.seat
        structure = "castle" if card.effect == "digger" or them["gate_size"] == 0 else "gate"
        strength = self._strength(view, action, card, structure)
        known = self.known_top.get((foe, structure))
        if known is not None:
            bonus = _defence_bonus(them["permanents"], structure)
            if card_of(known).defence(structure) + bonus > strength:
                return -5.0
        weight = CASTLE_WEIGHT if structure == "castle" else 1.0
        value = (strength - ATTACK_WASTE) * weight
        if structure == "castle" and them["castle_size"] <= 2:
            value += 3.0 / them["castle_size"]
        if card.effect == "archer":
            value += 1.5 if them["hand_size"] else 0.0
        if card.effect == "draw":
            value += 1.2 * card.amount
        if card.effect == "jester":
            value -= 2.0 + max(0, 4 - me["castle_size"])
        if card.effect == "veteran":
            value += 1.0
        return value - 0.5 * VALUES[card.kind]

    @staticmethod
    def _strength(view: dict[str, Any], action: dict[str, Any], card: Card, structure: str) -> int:
        assert card.attack is not None
        me = view["players"][view["seat"]]
        strength = card.attack + _attack_bonus(me["permanents"])
        if card.scheme is not None and len(action.get("pay", [])) > len(card.scheme.needs):
            strength += card.scheme.bonus_strength
        if card.effect == "castle_bonus" and structure == "castle":
            strength += card.amount
        if card.effect == "gate_bonus" and structure == "gate":
            strength += card.amount
        if card.effect == "jester":
            strength = 5  # twice an average Castle defence, unknown until revealed
        return strength


def _defence_bonus(permanents: list[str], structure: str) -> int:
    if not permanents:  # the usual case, asked for every attack scored
        return 0
    wanted = "palisade" if structure == "gate" else "watchtower"
    return sum(card_of(p).amount for p in permanents if card_of(p).effect == wanted)


def _attack_bonus(permanents: list[str]) -> int:
    if not permanents:  # the usual case, asked for every attack scored
        return 0
    return sum(card_of(p).amount for p in permanents if card_of(p).effect == "banner")
