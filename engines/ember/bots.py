"""Ember bots: a random player and a heuristic one; both see only their view and events."""

from __future__ import annotations

from typing import Any

from engines.base import Decision, Rng
from engines.botkit import SeededBot, without_resign
from engines.ember.cards import CARDS

SCAPE_SIZE = 5
RESPONSE_KEEP = {"martyr": 1.5, "dispel": 1.5, "ward": 1.2, "vengeance": 0.6}
ATTACK_WEIGHT = {
    "collect_scape": 1.6,
    "steal_scape": 1.3,
    "capture": 1.3,
    "destroy_scape": 1.0,
    "return_scape": 0.7,
}


def _think(rng: Rng, view: dict[str, Any], now_ms: int) -> int:
    """Human-like think time: 1-3 s on a turn, 0.6-2.5 s in a response window.

    The response time does not depend on the hand, so it reveals nothing about it.
    """
    if view.get("window") is not None:
        return now_ms + 600 + rng.randbelow(1900)
    return now_ms + 1000 + rng.randbelow(2000)


class RandomBot(SeededBot):
    """Picks uniformly among the legal actions (never resigns)."""

    def decide(
        self, view: dict[str, Any], legal: list[dict[str, Any]], now_ms: int
    ) -> Decision | None:
        choices = without_resign(legal)
        if not choices:
            return None
        return Decision(self.rng.choice(choices), _think(self.rng, view, now_ms))


class HeuristicBot(SeededBot):
    """Greedy one-ply scoring: stones banked, the leader's cards hit, responses kept."""

    def __init__(self, seat: int, seed: int) -> None:
        super().__init__(seat, seed)
        self._known: dict[int, str] = {}
        self._leader = seat

    def decide(
        self, view: dict[str, Any], legal: list[dict[str, Any]], now_ms: int
    ) -> Decision | None:
        choices = without_resign(legal)
        if not choices:
            return None
        self._learn(view)
        kind = choices[0]["type"]
        if view.get("window") is not None:
            action = self._respond(view, choices)
        elif kind == "hero":
            action = self.rng.choice(choices)
        elif view["phase"] == "mode":
            action = self._mode(view, choices)
        elif view["phase"] == "discard":
            action = min(choices, key=lambda a: self._keep_value(view, a["card"]))
        else:
            action = max(choices, key=lambda a: self._play_value(view, a) + self.rng.random() / 4)
        return Decision(action, _think(self.rng, view, now_ms))

    # -- helpers ------------------------------------------------------------------------

    def _learn(self, view: dict[str, Any]) -> None:
        """Index the cards this view shows by uid, and find the leading seat."""
        known = {entry["uid"]: entry["card"] for entry in view.get("hand", [])}
        for player in view["players"]:
            known.update((e["uid"], e["card"]) for e in player["scape"] if "card" in e)
        if view.get("arcane_card"):
            known[view["arcane_card"]["uid"]] = view["arcane_card"]["card"]
        self._known = known
        if view["players"] and view["phase"] != "hero":
            self._leader = max(range(view["seats"]), key=lambda s: self._standing(view, s))

    def _card(self, view: dict[str, Any], uid: int) -> str | None:
        return self._known.get(uid)

    def _keep_value(self, view: dict[str, Any], uid: int) -> float:
        card = CARDS[self._card(view, uid) or "ember_shard"]
        value = card.stones + len(card.effects) * 0.8
        return value + (RESPONSE_KEEP.get(card.response or "", 0.0))

    def _standing(self, view: dict[str, Any], seat: int) -> float:
        player = view["players"][seat]
        scape = sum(CARDS[e["card"]].stones for e in player["scape"] if "card" in e)
        return float(player.get("stones", player["known_stones"])) + scape / 2

    def _respond(self, view: dict[str, Any], choices: list[dict[str, Any]]) -> dict[str, Any]:
        responses = [a for a in choices if a["type"] == "respond"]
        if not responses:
            return choices[0]
        top = view["stack"][-1]
        if top["role"] == "card":
            preferred = [a for a in responses if self._card(view, a["card"]) != "dispel"]
            # Keep a dispel for a real threat: only spend it on a card-targeting attack.
            if preferred:
                return preferred[0]
            if top["target_card"] is None and CARDS[top["card"]].attack != "hex":
                return choices[0]
        return responses[0]

    def _mode(self, view: dict[str, Any], choices: list[dict[str, Any]]) -> dict[str, Any]:
        me = view["players"][self.seat]
        count = len(me["scape"])
        if count >= SCAPE_SIZE - 1:
            wanted = "attack"
        elif count >= 2 and self._standing(view, self.seat) >= self._standing(view, self._leader):
            wanted = "hasty"
        elif len(view["hand"]) <= 3:
            wanted = "greedy"
        else:
            wanted = me["mode"] or "protection"
        placing = [a for a in choices if a["type"] == "mode"]
        keep = me["mode"] == wanted or len(view["hand"]) < 3
        if keep and choices[0]["type"] == "pass":
            return choices[0]
        fitting = [a for a in placing if CARDS[self._card(view, a["card"]) or ""].mode == wanted]
        if fitting and (len(view["hand"]) >= 3 or choices[0]["type"] != "pass"):
            return min(fitting, key=lambda a: self._keep_value(view, a["card"]))
        if choices[0]["type"] == "pass":
            return choices[0]
        return min(placing, key=lambda a: self._keep_value(view, a["card"]))

    def _play_value(self, view: dict[str, Any], action: dict[str, Any]) -> float:
        uid = action.get("card", view["arcane_card"]["uid"] if view.get("arcane_card") else -1)
        card = CARDS[self._card(view, uid) or "ember_shard"]
        me = view["players"][self.seat]
        value = 0.0
        if card.to_scape or card.play == "collection":
            value += card.stones * (1.2 if card.play == "collection" else 1.0)
            # A card in the emberscape also brings the next collection (and arcane) closer.
            value += 0.8 if card.to_scape else 0.0
            if card.to_scape and me["mode"] == "attack" and len(me["scape"]) == SCAPE_SIZE - 1:
                value += 2.0
        if card.play == "face_down":
            value += 0.8
        if card.lasting is not None:
            value += 1.5
        if action["type"] == "play":
            value -= RESPONSE_KEEP.get(card.response or "", 0.0)
        for effect, count in card.effects:
            if effect == "draw":
                value += 0.6 * count
        target = action.get("target_seat")
        if target is not None:
            leader = self._leader
            # With more opponents, hitting anyone but the leader mostly helps the others.
            value += (0.5 + 0.6 * (view["seats"] - 2)) if target == leader else 0.0
            target_card = action.get("target_card")
            attack = card.attack or ""
            if target_card is not None:
                hit = CARDS[self._card(view, target_card) or "ember_shard"]
                value += ATTACK_WEIGHT.get(attack, 1.0) * (hit.stones + 0.3)
            elif attack == "hex":
                victim = view["players"][target]["mode"]
                value += 1.2 if victim in ("protection", "attack") else 0.3
            else:
                value += 0.9 if attack == "steal_hand" else 0.6
        choice = action.get("choice")
        if choice is not None:
            chosen = CARDS[self._card(view, choice) or "ember_shard"]
            if card.choice == "add_from_hand":
                value += chosen.stones - RESPONSE_KEEP.get(chosen.response or "", 0.0) - 0.3
            elif card.choice == "collect_own":
                value += chosen.stones * 0.5
            elif card.choice == "hex":
                value -= self._keep_value(view, choice) * 0.3
            else:
                value -= 0.5
        return value
