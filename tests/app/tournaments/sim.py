"""Simulated tournaments for pure tests: random outcomes settled by the real ledger."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from app.scoring.ledger import settle
from app.tournaments import director
from app.tournaments.director import RoundRecord
from app.tournaments.formats import TournamentSpec, planned_rounds
from app.tournaments.pairing import Table
from app.tournaments.standings import GameResult
from engines.base import Outcome, SeatResult


def random_result(table: Table, round_no: int, rng: random.Random) -> GameResult:
    """A random finished game at ``table``: shuffled placings (sometimes a tie), random damage,
    the losers destroyed, resigned or (rarely) forfeited."""
    players = table.players
    order = list(range(len(players)))
    rng.shuffle(order)
    placings: list[list[int]] = []
    for seat in order:
        if placings and rng.random() < 0.1:
            placings[-1].append(seat)
        else:
            placings.append([seat])
    seats: dict[int, SeatResult] = {}
    forfeited: set[int] = set()
    for seat in range(len(players)):
        winner = seat in placings[0]
        how = rng.random()
        destroyed = not winner and how < 0.5
        resigned = not winner and how >= 0.5
        if resigned and how > 0.9:
            forfeited.add(seat)
        damage = 1.0 if destroyed else rng.random() * (0.8 if winner else 1.0)
        seats[seat] = SeatResult(destroyed, resigned, damage)
    changes = settle(Outcome(placings, seats, "sim"), forfeited=forfeited)
    return GameResult(
        round_no,
        players,
        tuple(tuple(players[s] for s in group) for group in placings),
        {players[s]: change for s, change in changes.items()},
        frozenset(players[s] for s in forfeited),
    )


@dataclass
class Sim:
    spec: TournamentSpec
    seeded: list[int]
    active: list[int]
    rounds: list[RoundRecord] = field(default_factory=list)
    total: int = 0

    def points(self) -> dict[int, int]:
        table = director.current_standings(self.seeded, self.rounds)
        return {s.player: s.points for s in table}


def run(
    spec: TournamentSpec,
    players: int,
    seed: int,
    *,
    rounds: int | None = None,
    between: Callable[[Sim], None] | None = None,
) -> Sim:
    """Play the tournament to its end; ``between`` runs after every round (checks, late joins,
    withdrawals)."""
    rng = random.Random(seed)
    seeded = list(range(1, players + 1))
    sim = Sim(spec, seeded, list(seeded))
    sim.total = rounds if rounds is not None else planned_rounds(spec, players)
    while True:
        pairing = director.next_pairing(spec, sim.seeded, sim.active, sim.rounds, sim.total)
        if pairing is None:
            return sim
        record = RoundRecord(len(sim.rounds) + 1, pairing)
        sim.rounds.append(record)
        record.results = [random_result(t, record.number, rng) for t in pairing.tables]
        if between is not None:
            between(sim)
