"""Lobby responses: a table with its seats, and what starting it returns."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.api.responses.common import GameOptions, Out, TimeControlOut


class LobbyMember(Out):
    """One seat of a table."""

    seat: int = Field(description="the seat number, from 0")
    account_id: int | None = Field(description="the seated player's account (null: free or bot)")
    name: str | None = Field(description="the seated player's name, or a bot's label")
    bot: str | None = Field(description="a bot's kind (`heuristic`, `random`), else null")
    bot_account: bool = Field(
        default=False, description="true: the seated account is a bot account"
    )
    difficulty: str | None = Field(
        default=None, description="a bot's level (`easy`, `normal`, `hard`); absent: no bot"
    )
    castle: str | None = Field(description="the castle name chosen for the seat (null: none)")
    vote: int | None = Field(
        description="Ambush!: the seat whose castle name this seat voted for (null: none)"
    )


class LobbyOut(Out):
    """A table being gathered."""

    id: int = Field(description="the table id")
    game: str = Field(description="the game id")
    seats: int = Field(description="the number of seats")
    options: GameOptions = Field(description="the game's table options (the game's own keys)")
    public: bool = Field(description="listed for everyone (false: by invite only)")
    invite_code: str | None = Field(
        default=None, description="the invite code: shown to the table's members only"
    )
    rated: bool = Field(description="the match will be rated")
    hot_seat: bool = Field(description="one player may hold several seats on one device")
    time_control: TimeControlOut = Field(description="the table's clocks")
    status: Literal["open", "started", "closed"] = Field(
        description="`open`, `started` or `closed` (everyone left)"
    )
    host_id: int = Field(description="the host's account")
    members: list[LobbyMember] = Field(description="every seat, in seat order")
    match_id: int | None = Field(description="the match once started, else null")
    revision: int = Field(description="bumped by every change (the lobby socket's order)")


class StartedOut(Out):
    """A started table."""

    match_id: int = Field(description="the new match")
    first_seat: int | None = Field(
        default=None, description="the seat the name vote chose to start (null: no vote)"
    )
    votes: dict[str, int] | None = Field(
        default=None, description="votes each seat's castle name got, by seat number"
    )
    lobby: LobbyOut = Field(description="the table, now `started`")
