"""Whom an Ambush! bot hits: revenge, threat, the leader, a castle it can finish, and chance.

Never the seat number: with every castle alike the bot's own ``Rng`` decides, so a seat that
has hurt nobody is no likelier a target than any other (``tests/engines/test_bot_fairness.py``
measures it with a seat that only exposes and passes).
"""

from __future__ import annotations

from typing import Any

from engines.base import Rng

# Per turn started, what was remembered fades: a blow five turns ago counts about a third.
FADE = 0.8
REVENGE = 1.0  # per point of damage the opponent dealt this bot (faded)
THREAT = 0.3  # per point of damage the opponent dealt anyone (faded)
LEAD = 0.5  # per point of HP + ward above the other opponents' mean, up to LEAD_CAP points
LEAD_CAP = 8.0
FINISH = 8.0  # the card destroys the castle
WEAK_BELOW = 8  # a castle at this strength or less is worth hitting, more so the weaker
WEAK = 0.4


class Grudges:
    """Who hit whom, as one bot saw it in the public ``played`` events, fading turn by turn."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.against_me: dict[int, float] = {}
        self.dealt: dict[int, float] = {}

    def played(self, event: dict[str, Any]) -> None:
        """A card was played: its damage to each castle other than the player's counts."""
        attacker = event["seat"]
        for hit in event["hits"]:
            victim = hit["seat"]
            amount = hit["hp_lost"] + hit["absorbed"]
            if victim == attacker or amount <= 0:
                continue
            self.dealt[attacker] = self.dealt.get(attacker, 0.0) + amount
            if victim == self.seat:
                self.against_me[attacker] = self.against_me.get(attacker, 0.0) + amount

    def fade(self) -> None:
        """A turn started."""
        for memory in (self.against_me, self.dealt):
            for seat in memory:
                memory[seat] *= FADE

    def scores(self, castles: list[dict[str, Any]], damage: int) -> dict[int, float]:
        """Each living opponent's worth as the target of a card dealing ``damage``, before
        chance: revenge, threat (damage dealt to anyone), the lead in HP + ward over the
        others, and a castle the card would destroy or one near the end."""
        opponents = [c for c in castles if c["alive"] and c["seat"] != self.seat]
        if not opponents:
            return {}
        strengths = {c["seat"]: c["hp"] + c["ward"] for c in opponents}
        mean = sum(strengths.values()) / len(strengths)
        scores: dict[int, float] = {}
        for seat, strength in strengths.items():
            score = REVENGE * self.against_me.get(seat, 0.0) + THREAT * self.dealt.get(seat, 0.0)
            score += LEAD * min(max(strength - mean, 0.0), LEAD_CAP)
            if damage > 0 and strength <= damage:
                score += FINISH
            elif strength <= WEAK_BELOW:
                score += WEAK * (WEAK_BELOW + 1 - strength)
            scores[seat] = score
        return scores


def pick_target(scores: dict[int, float], rng: Rng, noise: float) -> int | None:
    """The best score after each gets up to ``noise`` of chance added (one draw per opponent,
    in seat order, so the draws do not depend on the scores)."""
    best: int | None = None
    best_score = 0.0
    for seat in sorted(scores):
        score = scores[seat] + rng.random() * noise
        if best is None or score > best_score:
            best, best_score = seat, score
    return best


def pick_richest(castles: list[dict[str, Any]], me: int, rng: Rng) -> int | None:
    """The opponent with the most cards in hand, chance choosing among equals."""
    counts: dict[int, int] = {
        c["seat"]: c["hand_count"] for c in castles if c["alive"] and c["seat"] != me
    }
    if not counts:
        return None
    most = max(counts.values())
    richest = sorted(seat for seat, count in counts.items() if count == most)
    return richest[rng.randbelow(len(richest))] if len(richest) > 1 else richest[0]
