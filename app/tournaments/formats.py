"""Tournament formats: what an organiser may create, how many rounds it has, who may join when.

Pure rules, no I/O. The life of a tournament: ``draft`` (created) -> ``registration`` (opened)
-> ``running`` (started) -> ``finished``.

House rules where the issue leaves room (each one a sentence a player can be told):
- Round robin and single elimination are duels. Swiss is a duel, or tables of 3-4 for games
  that seat that many (Ambush!, Ember).
- Late joining: only in Swiss, and only before the round ``late_join_until`` (default: the
  middle round) starts. A late player starts at 1500 and scores 0 for the rounds missed, which
  keeps the tournament's ledger zero-sum. Round robin and elimination close at the start.
- Withdrawing: before the start, the entry is removed. After it, the player is never paired
  again and keeps the points already scored; a match in progress is resigned for them (the
  ledger's resignation rule). A round-robin game still scheduled against a withdrawn player
  becomes a bye; an elimination opponent advances by walkover. Byes exchange no points.
- No-shows and time-outs: the table's time control applies (``grace_ms`` for a seat that
  never connects or leaves, ``turn_ms``/``on_timeout`` for the turn clock). A forfeit counts
  as a destroyed castle; a player who forfeits by abandonment (a no-show included) is
  withdrawn from later rounds. A correspondence tournament (``days_per_move``) has no grace:
  nobody forfeits for not showing up, only for running out of days.
- A round starts when the last match of the round before ends, in every format.
- Knockout draws: the better seed goes through (the ledger still records a draw).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from app.errors import AppError, Conflict


class Format(StrEnum):
    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"
    SINGLE_ELIMINATION = "single_elimination"


class Status(StrEnum):
    DRAFT = "draft"
    REGISTRATION = "registration"
    RUNNING = "running"
    FINISHED = "finished"


MIN_PLAYERS = 2
MAX_PLAYERS = 256
MAX_ROUNDS = 64


@dataclass(frozen=True)
class TournamentSpec:
    """What the organiser chose. ``rounds`` None lets the format decide (see ``planned_rounds``).

    ``time_control`` and ``options`` are passed to every table as they are.
    """

    game: str
    format: Format
    table_size: int = 2
    rounds: int | None = None
    late_join_until: int | None = None
    time_control: Mapping[str, Any] = field(default_factory=dict)
    options: Mapping[str, Any] = field(default_factory=dict)


def validate(spec: TournamentSpec, *, min_seats: int, max_seats: int) -> None:
    """Check a spec against the game's seat range.

    Refuses with ``AppError``: ``tournament/bad_table_size`` (outside the game's seats, or not
    2 for round robin and elimination, or above 4), ``tournament/bad_rounds`` (below 1 or above
    64; or set for elimination, whose rounds follow from the bracket), and
    ``tournament/bad_late_join`` (late joining outside Swiss).
    """
    if not min_seats <= spec.table_size <= max_seats or not 2 <= spec.table_size <= 4:
        raise AppError(
            "tournament/bad_table_size",
            f"{spec.game} seats {min_seats}-{max_seats}; tournament tables seat 2-4",
        )
    if spec.format != Format.SWISS and spec.table_size != 2:
        raise AppError("tournament/bad_table_size", f"{spec.format} is played in duels")
    if spec.rounds is not None:
        if spec.format == Format.SINGLE_ELIMINATION:
            raise AppError("tournament/bad_rounds", "elimination rounds follow from the bracket")
        if not 1 <= spec.rounds <= MAX_ROUNDS:
            raise AppError("tournament/bad_rounds", f"rounds must be 1-{MAX_ROUNDS}")
    if spec.late_join_until is not None and spec.format != Format.SWISS:
        raise AppError("tournament/bad_late_join", "only Swiss tournaments take late players")


def planned_rounds(spec: TournamentSpec, players: int) -> int:
    """Rounds for ``players`` entrants: round robin n-1 (n if odd, one bye each) unless the
    organiser asked for fewer; elimination ceil(log2 n); Swiss the organiser's number or
    ceil(log2 n) for duels, ceil(log_k n) + 1 for tables of k."""
    players = max(players, MIN_PLAYERS)
    if spec.format == Format.ROUND_ROBIN:
        full = players - 1 if players % 2 == 0 else players
        return min(full, spec.rounds) if spec.rounds else full
    if spec.format == Format.SINGLE_ELIMINATION:
        return math.ceil(math.log2(players))
    if spec.rounds:
        return spec.rounds
    if spec.table_size == 2:
        return max(1, math.ceil(math.log2(players)))
    return math.ceil(math.log(players, spec.table_size)) + 1


def late_join_limit(spec: TournamentSpec, rounds: int) -> int:
    """The last round a late player may still be paired into (0 = no late joining)."""
    if spec.format != Format.SWISS:
        return 0
    if spec.late_join_until is not None:
        return min(spec.late_join_until, rounds)
    return max(1, (rounds + 1) // 2)


def check_join(
    spec: TournamentSpec, status: Status, *, rounds_started: int, rounds: int, players: int
) -> None:
    """May a new player register now?

    Refuses with ``Conflict``: ``tournament/registration_closed`` (draft or finished),
    ``tournament/late_join_closed`` (running, and the format or the round forbids it),
    ``tournament/full`` (``MAX_PLAYERS`` reached).
    """
    if status in (Status.DRAFT, Status.FINISHED):
        raise Conflict("tournament/registration_closed", f"the tournament is {status}")
    if players >= MAX_PLAYERS:
        raise Conflict("tournament/full", f"at most {MAX_PLAYERS} players")
    if status == Status.RUNNING and rounds_started >= late_join_limit(spec, rounds):
        raise Conflict("tournament/late_join_closed", "this tournament takes no more players")


def check_start(status: Status, players: int) -> None:
    """May the organiser start now? Refuses with ``Conflict``: ``tournament/not_open`` (not in
    registration) or ``tournament/too_few_players`` (fewer than two)."""
    if status != Status.REGISTRATION:
        raise Conflict("tournament/not_open", f"the tournament is {status}")
    if players < MIN_PLAYERS:
        raise Conflict("tournament/too_few_players", f"at least {MIN_PLAYERS} players")


def check_withdraw(status: Status) -> None:
    """Refuses with ``Conflict`` ``tournament/finished`` once the tournament is over."""
    if status == Status.FINISHED:
        raise Conflict("tournament/finished", "the tournament is over")
