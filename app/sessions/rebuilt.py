"""A match as its action log rebuilds it (``replay.py``): what a session is built from, and what
a session restored in place takes again (``GameSession.restore``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.protocol.match import Ended
from app.sessions.bots import BotSeat
from app.sessions.clock import MatchClock
from app.sessions.commands import History, SeatInfo
from app.sessions.replies import Answers
from app.sessions.timecontrol import TimeControl, TurnClocks
from engines.base import Engine, State


@dataclass
class Rebuilt:
    """One match at its last logged ``version``.

    What the log fixes: who sits where, the game and its seed, whether it is rated, the time
    control. What replaying it gives: the engine's ``state``, the recent ``history``, the
    server bots having seen every version, the forfeits logged, the answer to each client's
    last action (``replies``), the turn clocks as the logged times ran them, and a match clock
    resuming after the last action. A restore takes the state, history, bots and forfeits
    again; a new session takes everything."""

    match_id: int
    engine: Engine
    seats: list[SeatInfo]
    seed: int
    rated: bool
    time_control: TimeControl
    clock: MatchClock
    state: State
    version: int
    history: History
    bots: dict[int, BotSeat]
    forfeits: dict[str, Any]
    replies: Answers
    turn_clocks: TurnClocks
    # The ``ended`` message of a match whose result is recorded.
    ended: Ended | None = None
    # Ended in the log, its result never written (killed between its last move and the write).
    result_unwritten: bool = False
    # Ended by an admin with no result (``Hub.abort``).
    aborted: bool = False
