"""Tournament responses: a tournament, its entries, rounds with tables, and standings."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.api.filters import TournamentStatus
from app.api.responses.common import GameOptions, Out, TimeControlOut

WHEN = "ISO 8601 (UTC); null: not yet"


class TournamentOut(Out):
    """A tournament (the list shows this; one tournament adds its entries)."""

    id: int = Field(description="the tournament id")
    name: str | None = Field(description="its name")
    game: str = Field(description="the game id")
    format: Literal["round_robin", "swiss", "single_elimination"] = Field(
        description="`round_robin`, `swiss` or `single_elimination`"
    )
    table_size: int = Field(description="seats per table, 2 to 4")
    rounds: int | None = Field(description="rounds planned (null: decided at the start)")
    late_join_until: int | None = Field(
        description="Swiss only: players may join until this round starts (null: the middle "
        "round; other formats close at the start)"
    )
    time_control: TimeControlOut = Field(description="every table's clocks")
    options: GameOptions = Field(description="every table's game options (the game's own keys)")
    rated: bool = Field(description="its matches are rated (move ladders)")
    allow_bots: bool = Field(
        default=False, description="bot accounts may register (the organiser's choice)"
    )
    status: TournamentStatus = Field(description="`draft`, `registration`, `running` or `finished`")
    organiser_id: int = Field(description="the organiser's account")
    current_round: int = Field(description="the round being played (0: not started)")
    players: int | None = Field(description="entries, withdrawn ones included")
    created_at: str | None = Field(description="when it was created, " + WHEN)
    started_at: str | None = Field(description="when it started, " + WHEN)
    finished_at: str | None = Field(description="when it finished, " + WHEN)


class EntryOut(Out):
    """A player (or a server bot) entered in a tournament."""

    id: int = Field(description="the entry id (tables and standings name entries)")
    account_id: int | None = Field(description="the player's account (null: a bot)")
    bot: str | None = Field(description="a bot's spec (kind and level), else null")
    bot_account: bool = Field(
        default=False, description="true: the entry's account is a bot account"
    )
    name: str = Field(description="the name shown")
    seed: int | None = Field(description="its seed from 1 (null: before the start)")
    joined_round: int | None = Field(description="the round it joined in (null: from the start)")
    status: Literal["active", "withdrawn"] = Field(description="`active` or `withdrawn`")
    withdrawn_round: int | None = Field(description="the round it withdrew in, else null")


class TournamentDetail(TournamentOut):
    """A tournament with its entries in seed order."""

    entries: list[EntryOut] = Field(description="every entry, in seed order")


class TableOut(Out):
    """One table (pairing) of a round."""

    table: int = Field(description="the table number in its round")
    entries: list[int] = Field(description="its entries, in seat order")
    names: list[str] = Field(description="their names, in seat order")
    match_id: int | None = Field(description="its match (null: not opened yet)")
    status: Literal["playing", "finished"] = Field(description="`playing` or `finished`")
    placings: list[list[int]] | None = Field(
        description="entries from first to last once finished (ties share a list)"
    )
    changes: dict[str, int] | None = Field(
        description="each entry's change of tournament ledger points, by entry id"
    )
    forfeited: list[int] | None = Field(description="entries that forfeited")


class RoundOut(Out):
    """One round."""

    number: int = Field(description="the round, from 1")
    status: Literal["running", "finished"] = Field(description="`running` or `finished`")
    byes: list[int] = Field(description="entries sitting this round out")
    bye_names: list[str | None] = Field(description="their names")
    pairings: list[TableOut] = Field(description="the round's tables")


class StandingOut(Out):
    """One entry's place: the tournament's 1500-point ledger, then the tiebreaks."""

    player: int = Field(description="the entry id")
    rank: int = Field(description="its rank from 1 (entries level on everything share one)")
    points: int = Field(description="ledger points: 1500 plus every change")
    played: int = Field(description="games played")
    wins: int = Field(description="games won")
    draws: int = Field(description="games drawn")
    losses: int = Field(description="games lost")
    byes: int = Field(description="rounds sat out")
    buchholz: float = Field(description="Buchholz: opponents' mean net points, summed")
    sonneborn_berger: float = Field(description="Sonneborn-Berger tiebreak")
    head_to_head: float = Field(description="the game score against the entries level with it")
    withdrawn: bool = Field(description="it withdrew")
    entry_id: int = Field(description="the entry id")
    account_id: int | None = Field(description="the player's account (null: a bot)")
    bot: str | None = Field(description="a bot's spec, else null")
    bot_account: bool = Field(
        default=False, description="true: the entry's account is a bot account"
    )
    name: str = Field(description="the name shown")
