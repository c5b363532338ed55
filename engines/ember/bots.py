"""Ember bots: a random player and a heuristic one; both see only their view and events."""

from __future__ import annotations

from typing import Any

from engines.base import Decision
from engines.botkit import DEFAULT_LEVEL, SeededBot, without_resign
from engines.ember.cards import CARDS, Card

SCAPE_SIZE = 5
RESPONSE_KEEP = {"martyr": 1.5, "dispel": 1.5, "ward": 1.2, "vengeance": 0.6}
ATTACK_WEIGHT = {
    "collect_scape": 1.6,
    "steal_scape": 1.3,
    "capture": 1.3,
    "destroy_scape": 1.0,
    "return_scape": 0.7,
}
FALLBACK = "ember_shard"  # how the bot values a card it cannot see
# Revenge: per attack an opponent aimed at the bot (up to GRUDGE_CAP of them remembered); the
# bot's own attack on that opponent settles half of it.
GRUDGE_BONUS = 0.5
GRUDGE_CAP = 3.0


def _keep_value(card: Card) -> float:
    """What holding the card is worth (the cheapest one is discarded or set as mode)."""
    value = card.stones + len(card.effects) * 0.8
    return value + (RESPONSE_KEEP.get(card.response or "", 0.0))


def _card_value(card: Card, from_hand: bool, attack_ready: bool) -> float:
    """The part of a play's value that depends on the card alone (before targets, choices).

    ``attack_ready``: the player is in attack mode with one free slot, so a card landing in
    the emberscape fills it and earns the collection at once.
    """
    value = 0.0
    if card.to_scape or card.play == "collection":
        value += card.stones * (1.2 if card.play == "collection" else 1.0)
        # A card in the emberscape also brings the next collection (and arcane) closer.
        value += 0.8 if card.to_scape else 0.0
        if card.to_scape and attack_ready:
            value += 2.0
    if card.play == "face_down":
        value += 0.8
    if card.lasting is not None:
        value += 1.5
    if from_hand:
        value -= RESPONSE_KEEP.get(card.response or "", 0.0)
    for effect, count in card.effects:
        if effect == "draw":
            value += 0.6 * count
    return value


# Worked out once: the bot scores every legal play on every decision. The sums keep the order
# of additions of the scoring they come from, so the floats (and the bot's choices) are the same.
KEEP_VALUE = {cid: _keep_value(card) for cid, card in CARDS.items()}
CARD_VALUE = {
    (cid, from_hand, ready): _card_value(card, from_hand, ready)
    for cid, card in CARDS.items()
    for from_hand in (False, True)
    for ready in (False, True)
}
HIT_VALUE = {
    (attack, cid): ATTACK_WEIGHT.get(attack, 1.0) * (card.stones + 0.3)
    for attack in (*ATTACK_WEIGHT, "")
    for cid, card in CARDS.items()
}
STONES = {cid: card.stones for cid, card in CARDS.items()}


def _think(bot: SeededBot, view: dict[str, Any], now_ms: int) -> int:
    """Human-like think time: 1-3 s on a turn, 0.6-2.5 s in a response window (stretched by
    the bot's level).

    The response time does not depend on the hand, so it reveals nothing about it.
    """
    if view.get("window") is not None:
        return now_ms + bot.think(600, 2499)
    return now_ms + bot.think(1000, 2999)


class RandomBot(SeededBot):
    """Picks uniformly among the legal actions (never resigns)."""

    def decide(
        self, view: dict[str, Any], legal: list[dict[str, Any]], now_ms: int
    ) -> Decision | None:
        choices = without_resign(legal)
        if not choices:
            return None
        return Decision(self.rng.choice(choices), _think(self, view, now_ms))


def _read_scape(scape: list[dict[str, Any]]) -> tuple[dict[int, str], int]:
    """An emberscape's visible cards by uid, and their stones."""
    known: dict[int, str] = {}
    stones = 0
    for entry in scape:
        card = entry.get("card")
        if card is not None:
            known[entry["uid"]] = card
            stones += STONES[card]
    return known, stones


class HeuristicBot(SeededBot):
    """Greedy one-ply scoring: stones banked, the leaders' cards hit (every opponent sharing
    the best standing alike, never by seat), attacks answered in kind, responses kept. Easy
    bots slip: some decisions are random, and chance weighs more in their scores."""

    def __init__(self, seat: int, seed: int, level: str = DEFAULT_LEVEL) -> None:
        super().__init__(seat, seed, level)
        self._known: dict[int, str] = {}
        # The opponents with the best standing, and that standing.
        self._leaders: frozenset[int] = frozenset()
        self._lead = 0.0
        self._standings: list[float] = []
        self._grudges: dict[int, float] = {}
        # What was read from the hand and each emberscape, with the view parts themselves:
        # views share unchanged parts and never change them, so the same object means the
        # same cards.
        self._hand: tuple[Any, dict[int, str]] = (None, {})
        self._scapes: dict[int, tuple[Any, dict[int, str], int]] = {}

    def observe(self, events: list[dict[str, Any]], view: dict[str, Any]) -> None:
        """Remember who aimed attacks at this bot (public ``played`` events)."""
        for event in events:
            if event["type"] != "played":
                continue
            target, attacker = event.get("target_seat"), event["seat"]
            if target is None or target == attacker:
                continue
            if target == self.seat:
                self._grudges[attacker] = min(self._grudges.get(attacker, 0.0) + 1, GRUDGE_CAP)
            elif attacker == self.seat and target in self._grudges:
                self._grudges[target] /= 2

    def decide(
        self, view: dict[str, Any], legal: list[dict[str, Any]], now_ms: int
    ) -> Decision | None:
        choices = without_resign(legal)
        if not choices:
            return None
        kind = choices[0]["type"]
        if self.slips():
            return Decision(self.rng.choice(choices), _think(self, view, now_ms))
        if view.get("window") is not None:
            action = self._respond(view, choices)
            return Decision(action, _think(self, view, now_ms))
        self._learn(view)
        if kind == "hero":
            action = self.rng.choice(choices)
        elif view["phase"] == "mode":
            action = self._mode(view, choices)
        elif view["phase"] == "discard":
            action = min(choices, key=lambda a: self._keep_value(a["card"]))
        else:
            action = self._best_play(view, choices)
        return Decision(action, _think(self, view, now_ms))

    # -- helpers ------------------------------------------------------------------------

    def _learn(self, view: dict[str, Any]) -> None:
        """Index the cards this view shows by uid, and find the leading seat."""
        hand = view.get("hand", [])
        if hand is not self._hand[0]:
            self._hand = (hand, {entry["uid"]: entry["card"] for entry in hand})
        known = dict(self._hand[1])
        standings: list[float] = []
        for seat, player in enumerate(view["players"]):
            scape = player["scape"]
            kept = self._scapes.get(seat)
            if kept is None or kept[0] is not scape:
                kept = self._scapes[seat] = (scape, *_read_scape(scape))
            known.update(kept[1])
            # A seat's standing: its banked stones (as far as known), half its emberscape's.
            standings.append(float(player.get("stones", player["known_stones"])) + kept[2] / 2)
        if view.get("arcane_card"):
            known[view["arcane_card"]["uid"]] = view["arcane_card"]["card"]
        self._known = known
        if view["players"] and view["phase"] != "hero":
            self._standings = standings
            others = [s for s in range(view["seats"]) if s != self.seat]
            self._lead = max((standings[s] for s in others), default=0.0)
            self._leaders = frozenset(s for s in others if standings[s] == self._lead)

    def _keep_value(self, uid: int) -> float:
        return KEEP_VALUE[self._known.get(uid) or FALLBACK]

    def _respond(self, view: dict[str, Any], choices: list[dict[str, Any]]) -> dict[str, Any]:
        responses = [a for a in choices if a["type"] == "respond"]
        if not responses:
            return choices[0]  # nothing to weigh: what the view shows is learnt next time
        self._learn(view)
        top = view["stack"][-1]
        if top["role"] == "card":
            preferred = [a for a in responses if self._known.get(a["card"]) != "dispel"]
            # Keep a dispel for a real threat: only spend it on a card-targeting attack.
            if preferred:
                return preferred[0]
            if top["target_card"] is None and CARDS[top["card"]].attack != "hex":
                return choices[0]
        return responses[0]

    def _mode(self, view: dict[str, Any], choices: list[dict[str, Any]]) -> dict[str, Any]:
        me = view["players"][self.seat]
        count = len(me["scape"])
        standings = self._standings
        if count >= SCAPE_SIZE - 1:
            wanted = "attack"
        elif count >= 2 and standings[self.seat] >= self._lead:
            wanted = "hasty"
        elif len(view["hand"]) <= 3:
            wanted = "greedy"
        else:
            wanted = me["mode"] or "protection"
        placing = [a for a in choices if a["type"] == "mode"]
        keep = me["mode"] == wanted or len(view["hand"]) < 3
        if keep and choices[0]["type"] == "pass":
            return choices[0]
        known = self._known
        fitting = [a for a in placing if CARDS[known.get(a["card"]) or ""].mode == wanted]
        if fitting and (len(view["hand"]) >= 3 or choices[0]["type"] != "pass"):
            return min(fitting, key=lambda a: self._keep_value(a["card"]))
        if choices[0]["type"] == "pass":
            return choices[0]
        return min(placing, key=lambda a: self._keep_value(a["card"]))

    def _best_play(self, view: dict[str, Any], choices: list[dict[str, Any]]) -> dict[str, Any]:
        """The best-scoring play (or arcane declaration), a little noise breaking near-ties."""
        known = self._known
        me = view["players"][self.seat]
        attack_ready = me["mode"] == "attack" and len(me["scape"]) == SCAPE_SIZE - 1
        arcane = view.get("arcane_card")
        default_uid = arcane["uid"] if arcane else -1
        leader_bonus = 0.5 + 0.6 * (view["seats"] - 2)
        leaders, grudges = self._leaders, self._grudges
        # The first highest score wins, as ``max`` would pick it; one draw per action, in order.
        random = self.rng.random
        chance = self.level.noise / 4
        best, best_value = choices[0], 0.0
        for index, action in enumerate(choices):
            card_id = known.get(action.get("card", default_uid)) or FALLBACK
            value = CARD_VALUE[card_id, action["type"] == "play", attack_ready]
            target = action.get("target_seat")
            if target is not None:
                card = CARDS[card_id]
                # With more opponents, hitting anyone but the leader mostly helps the others.
                if target in leaders:
                    value += leader_bonus
                if grudges:
                    value += GRUDGE_BONUS * grudges.get(target, 0.0)
                target_card = action.get("target_card")
                attack = card.attack or ""
                if target_card is not None:
                    value += HIT_VALUE[attack, known.get(target_card) or FALLBACK]
                elif attack == "hex":
                    victim = view["players"][target]["mode"]
                    value += 1.2 if victim in ("protection", "attack") else 0.3
                else:
                    value += 0.9 if attack == "steal_hand" else 0.6
            choice = action.get("choice")
            if choice is not None:
                value += self._choice_value(CARDS[card_id], choice)
            value += random() * chance
            if index == 0 or value > best_value:
                best, best_value = action, value
        return best

    def _choice_value(self, card: Card, choice: int) -> float:
        chosen = CARDS[self._known.get(choice) or FALLBACK]
        if card.choice == "add_from_hand":
            return chosen.stones - RESPONSE_KEEP.get(chosen.response or "", 0.0) - 0.3
        if card.choice == "collect_own":
            return chosen.stones * 0.5
        if card.choice == "hex":
            return -(KEEP_VALUE[chosen.id] * 0.3)
        return -0.5
