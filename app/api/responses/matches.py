"""Match responses: the history list, one match with seats and result, its socket's route, and
its state at a version."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from app.api.filters import MatchStatus
from app.api.responses.common import GameOptions, Out, ResultOut, TimeControlOut
from app.api.responses.views import GameView


class MatchSeatOut(Out):
    """Who sat where."""

    seat: int = Field(description="the seat number, from 0")
    account_id: int | None = Field(description="the seated player's account (null: a bot)")
    name: str | None = Field(description="the seat's castle name")
    player: str | None = Field(description="the seated player's name (null: a bot)")
    bot_account: bool = Field(
        default=False, description="true: the seated account is a bot account (false in the log)"
    )
    bot: str | None = Field(description="a bot's kind (`heuristic`, `random`, ...), else null")
    difficulty: str | None = Field(description="a bot's level (`easy`, `normal`, `hard`)")
    ledger_delta: int | None = Field(
        description="the seat's change of 1500-point ledger points in this match: null while "
        "it runs, in a casual match (no ladder moves), or once voided"
    )


class RaceSeatFlags(Out):
    """One seat's grab-race figures over the whole match."""

    grabs: int = Field(description="grabs it made")
    clamped: int = Field(description="grabs whose claimed reaction time had to be clamped")
    clamped_share: float = Field(description="clamped / grabs, 0 to 1")
    calls_reacted: int = Field(description="Ambush! calls it reacted to")
    median_reaction_ms: float | None = Field(
        description="its median reaction to a call, in ms (null: none measured)"
    )
    reasons: list[str] = Field(
        description="why it is flagged: `clamped` (over 25% of 8+ grabs clamped), "
        "`fast_reactions` (median under 150 ms over 5+ calls); empty: not flagged"
    )


class RaceFlags(Out):
    """The grab races' suspicion flags (games with grab races only)."""

    flagged: list[int] = Field(description="the seats with at least one reason")
    seats: dict[str, RaceSeatFlags] = Field(description="each seat's figures, by seat number")


class MatchOut(Out):
    """One match."""

    id: int = Field(description="the match id")
    game: str = Field(description="the game id")
    status: MatchStatus = Field(
        description="`running`, `finished`, `aborted` (ended without a result) or `voided`"
    )
    rated: bool = Field(description="true: the match moves ladders and the ledger")
    seats: list[MatchSeatOut] = Field(description="every seat in seat order")
    options: GameOptions = Field(
        description="the game's table options (an open map, the game's own keys); options "
        "that stack hidden cards (`deck`, `decks`) only once the match is over"
    )
    time_control: TimeControlOut = Field(description="the table's clocks")
    started_at: str = Field(description="when it started, ISO 8601 (UTC)")
    ended_at: str | None = Field(description="when it ended, ISO 8601 (null: running)")
    version: int = Field(description="the match's latest version (one per accepted action)")
    result: ResultOut | None = Field(description="the outcome (null: no result yet, or none)")
    ledger: dict[str, int] | None = Field(
        description="each seat's change of 1500-point ledger points, by seat number; they sum "
        "to 0. Null while running, in a casual match, or once voided"
    )
    forfeits: dict[str, str] | None = Field(
        description="seats that forfeited, by seat number: `time` or `abandoned`"
    )
    flags: RaceFlags | None = Field(description="grab-race suspicion flags (null: no races)")
    lobby_id: int | None = Field(description="the table it started from (null: none)")
    tournament_id: int | None = Field(
        default=None,
        description="one match only: the tournament whose table it is (null: none)",
    )


class MatchList(Out):
    """A page of the match history, newest first."""

    total: int = Field(description="matches of the filters, counted up to 10,000")
    total_capped: bool = Field(description="true: the count stopped at 10,000")
    matches: list[MatchOut] = Field(description="this page")


class RouteOut(Out):
    """Where a match's socket should go."""

    match_id: int = Field(description="the match id")
    node: str | None = Field(
        description="the process that serves it when several do (null: any process)"
    )


class StateOut(Out):
    """A match at one version, as the requester may see it."""

    match_id: int = Field(description="the match id")
    version: int = Field(description="the version shown")
    seat: int | None = Field(description="the seat whose view this is (null: a spectator's)")
    view: GameView = Field(description="the seat's view, by game (its `game` field)")
    state: dict[str, Any] | None = Field(
        default=None,
        description="once the match is over: the engine's whole state at that version, in the "
        "engine's own serialization (an open map: its keys are the engine's, for replays and "
        "analysis, and may change between server versions)",
    )
