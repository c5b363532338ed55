"""Tournament standings: the tournament's own 1500-point ledger, then Buchholz, Sonneborn-Berger
and head-to-head.

Every player starts at 1500 and each finished game adds its ledger change (``ledger.settle``),
so the ledger sums to zero after every round; a bye or a missed round adds nothing. Tiebreaks
use each opponent's *net* ledger (points - 1500), so a round a player sat out weighs nothing:
- Buchholz: per game, the mean net of the opponents at that table, summed over games.
- Sonneborn-Berger: per game and opponent, the game score against them (1 placed above,
  1/2 level, 0 below) times their net, divided by the table's opponents, summed.
- Head-to-head: among players still level on all of the above, the game score against each
  other. Then seed order; players level on everything share a rank.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from app.scoring.ledger import START


@dataclass(frozen=True)
class GameResult:
    """One finished table: players in seat order, placings best first (player ids, ties share
    a group), each player's ledger change, and who forfeited."""

    round: int
    players: tuple[int, ...]
    placings: tuple[tuple[int, ...], ...]
    changes: Mapping[int, int]
    forfeited: frozenset[int] = field(default_factory=frozenset)

    def place(self, player: int) -> int:
        return next(i for i, group in enumerate(self.placings) if player in group)

    def score_against(self, player: int, opponent: int) -> Fraction:
        mine, theirs = self.place(player), self.place(opponent)
        return Fraction(1) if mine < theirs else Fraction(1, 2) if mine == theirs else Fraction(0)


@dataclass(frozen=True)
class Standing:
    player: int
    rank: int
    points: int
    played: int
    wins: int
    draws: int
    losses: int
    byes: int
    buchholz: float
    sonneborn_berger: float
    head_to_head: float
    withdrawn: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "rank": self.rank,
            "points": self.points,
            "played": self.played,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "byes": self.byes,
            "buchholz": self.buchholz,
            "sonneborn_berger": self.sonneborn_berger,
            "head_to_head": self.head_to_head,
            "withdrawn": self.withdrawn,
        }


def ledger(players: Iterable[int], results: Iterable[GameResult]) -> dict[int, int]:
    """Each player's points: 1500 plus every ledger change."""
    points = dict.fromkeys(players, START)
    for result in results:
        for player, change in result.changes.items():
            points[player] = points.get(player, START) + change
    return points


def compute(
    seeded: Sequence[int],
    results: Sequence[GameResult],
    *,
    byes: Mapping[int, int] | None = None,
    withdrawn: Iterable[int] = (),
) -> list[Standing]:
    """Standings best first for ``seeded`` players (seed order breaks the last ties).

    ``byes`` counts byes per player (they score nothing but are shown).
    """
    byes = byes or {}
    gone = set(withdrawn)
    seed = {p: i for i, p in enumerate(seeded)}
    points = ledger(seeded, results)
    net = {p: Fraction(points[p] - START) for p in points}
    games: dict[int, list[GameResult]] = defaultdict(list)
    for result in results:
        for player in result.players:
            games[player].append(result)
    buchholz: dict[int, Fraction] = {}
    berger: dict[int, Fraction] = {}
    for player in seeded:
        buchholz[player] = berger[player] = Fraction(0)
        for game in games[player]:
            opponents = [p for p in game.players if p != player]
            buchholz[player] += sum((net[o] for o in opponents), Fraction(0)) / len(opponents)
            berger[player] += sum(
                (game.score_against(player, o) * net[o] for o in opponents), Fraction(0)
            ) / len(opponents)

    def main_key(p: int) -> tuple[int, Fraction, Fraction]:
        return points[p], buchholz[p], berger[p]

    head: dict[int, Fraction] = {}
    level: dict[tuple[int, Fraction, Fraction], list[int]] = defaultdict(list)
    for player in seeded:
        level[main_key(player)].append(player)
    for group in level.values():
        members = set(group)
        for player in group:
            head[player] = sum(
                (
                    game.score_against(player, o)
                    for game in games[player]
                    for o in game.players
                    if o != player and o in members
                ),
                Fraction(0),
            )

    def full_key(p: int) -> tuple[int, Fraction, Fraction, Fraction]:
        return (*main_key(p), head[p])

    ordered = sorted(seeded, key=lambda p: (*(-x for x in full_key(p)), seed[p]))
    standings: list[Standing] = []
    for index, player in enumerate(ordered):
        tied = index and full_key(ordered[index - 1]) == full_key(player)
        rank = standings[-1].rank if tied else index + 1
        own = games[player]
        wins = sum(1 for g in own if g.placings[0] == (player,))
        draws = sum(1 for g in own if len(g.placings[0]) > 1 and player in g.placings[0])
        standings.append(
            Standing(
                player=player,
                rank=rank,
                points=points[player],
                played=len(own),
                wins=wins,
                draws=draws,
                losses=len(own) - wins - draws,
                byes=byes.get(player, 0),
                buchholz=round(float(buchholz[player]), 2),
                sonneborn_berger=round(float(berger[player]), 2),
                head_to_head=float(head[player]),
                withdrawn=player in gone,
            )
        )
    return standings


def ranking(standings: Sequence[Standing]) -> list[int]:
    """Player ids in standings order (the order Swiss pairs by)."""
    return [s.player for s in standings]


def scores(standings: Sequence[Standing]) -> dict[int, float]:
    """Swiss score groups: players with equal points share a group."""
    return {s.player: float(s.points) for s in standings}
