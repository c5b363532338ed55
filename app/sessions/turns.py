"""Whose turn it is, per account: which players a match awaits now, told on each change."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from app.sessions.clock import MatchClock
from app.sessions.commands import SeatInfo

# Told that a match started (True) or stopped (False) awaiting one of an account's seats:
# (match, account, awaiting).
TurnListener = Callable[[int, int, bool], None]


def awaited_accounts(seats: list[SeatInfo], awaited: Iterable[int]) -> frozenset[int]:
    """The accounts holding an awaited seat (bots' seats have no account)."""
    out = set()
    for seat in awaited:
        account = seats[seat].account_id if 0 <= seat < len(seats) else None
        if account is not None:
            out.add(account)
    return frozenset(out)


class TurnWatch:
    """The accounts a match awaited when last told (a player holding several seats is awaited
    while any of them is). ``moved`` compares the awaited seats of a new version with it and
    tells ``listener`` of each account whose answer changed, so a move that leaves the same
    players awaited (an Ambush! race, a player's second action of a turn) costs one set
    comparison and sends nothing."""

    def __init__(self, match_id: int, seats: list[SeatInfo]) -> None:
        self.match_id = match_id
        self.seats = seats
        self.awaited: frozenset[int] = frozenset()
        self.listener: TurnListener | None = None
        self._seats_seen: list[int] | None = None  # the awaited seats ``moved`` saw last

    def moved(self, awaited: Iterable[int], *, tell: bool = True) -> None:
        """``tell`` False: only remember (a match rebuilt from its log awaits whom it awaited
        when its players were last told)."""
        seats = list(awaited)
        if seats == self._seats_seen:
            return  # the same seats (a list per version, compared without a set)
        self._seats_seen = seats
        now = awaited_accounts(self.seats, seats)
        if now == self.awaited:
            return
        before, self.awaited = self.awaited, now
        if self.listener is None or not tell:
            return
        for account in sorted(now - before):
            self.listener(self.match_id, account, True)
        for account in sorted(before - now):
            self.listener(self.match_id, account, False)


def wall_ms(clock: MatchClock, match_ms: int) -> int:
    """The wall clock (ms since the epoch) at which the match clock reaches ``match_ms``."""
    return int(time.time() * 1000 + (match_ms - clock.now()) / clock.rate)
