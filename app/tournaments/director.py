"""The next round of a tournament, decided from its spec, entrants and past rounds (pure).

The scheduling service stores rounds and results; this module alone decides who plays whom
next, so a whole tournament can be replayed or simulated without a server.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from app.tournaments import pairing, standings
from app.tournaments.formats import Format, TournamentSpec
from app.tournaments.pairing import History, Pairing
from app.tournaments.standings import GameResult


@dataclass
class RoundRecord:
    """A paired round and the results of its tables finished so far."""

    number: int
    pairing: Pairing
    results: list[GameResult] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return len(self.results) == len(self.pairing.tables)


def knockout_winner(result: GameResult, seed: Mapping[int, int]) -> int:
    """Who goes through from a knockout duel. House rule: a drawn game sends the better seed
    through (the ledger still records the draw as nothing exchanged)."""
    return min(result.placings[0], key=lambda p: seed[p])


def all_results(rounds: Iterable[RoundRecord]) -> list[GameResult]:
    return [result for record in rounds for result in record.results]


def bye_counts(rounds: Iterable[RoundRecord]) -> Counter[int]:
    return Counter(p for record in rounds for p in record.pairing.byes)


def current_standings(
    seeded: Sequence[int], rounds: Sequence[RoundRecord], withdrawn: Iterable[int] = ()
) -> list[standings.Standing]:
    return standings.compute(
        seeded, all_results(rounds), byes=bye_counts(rounds), withdrawn=withdrawn
    )


def elimination_state(seeded: Sequence[int], rounds: Sequence[RoundRecord]) -> list[int | None]:
    """The bracket slots after the finished ``rounds``."""
    seed = {p: i for i, p in enumerate(seeded)}
    slots = pairing.elimination_slots(seeded)
    for record in rounds:
        winners = {knockout_winner(r, seed) for r in record.results} | set(record.pairing.byes)
        slots = pairing.advance(slots, winners)
    return slots


def next_pairing(
    spec: TournamentSpec,
    seeded: Sequence[int],
    active: Sequence[int],
    rounds: Sequence[RoundRecord],
    total_rounds: int,
) -> Pairing | None:
    """The pairing of round ``len(rounds) + 1``, or None when the tournament is over.

    ``seeded`` lists every entrant ever (seed order, late joiners appended); ``active`` those
    still playing. Refuses (``ValueError``) while the last round has unfinished tables.
    """
    if rounds and not rounds[-1].complete:
        raise ValueError("the last round is still being played")
    if len(rounds) >= total_rounds:
        return None
    playing = set(active)
    gone = [p for p in seeded if p not in playing]
    history = History.from_rounds(record.pairing for record in rounds)
    if spec.format == Format.ROUND_ROBIN:
        # The field is fixed at the start (no late joining), so the schedule never changes.
        schedule = pairing.round_robin(seeded)
        return pairing.without(schedule[len(rounds)], gone)
    if spec.format == Format.SINGLE_ELIMINATION:
        slots = [p if p in playing else None for p in elimination_state(seeded, rounds)]
        if sum(p is not None for p in slots) < 2:
            return None
        return pairing.elimination_round(slots, history, {p: i for i, p in enumerate(seeded)})
    table = current_standings(seeded, rounds, gone)
    ranked = [p for p in standings.ranking(table) if p in playing]
    if len(ranked) < 2:
        return None
    if spec.table_size == 2:
        return pairing.swiss_duels(ranked, history, standings.scores(table))
    return pairing.swiss_tables(ranked, history, spec.table_size)
