"""What the server sends on the lobby socket (``/ws/lobby``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, with_config
from typing_extensions import TypedDict

from app.protocol.common import CLOSED, Error, RematchExpired, RematchOffer, RematchStarted

Table = Annotated[
    dict[str, Any],
    Field(description="a table, as `GET /api/lobbies/{id}` returns it (see the REST reference)"),
]


@with_config(CLOSED)
class Lobbies(TypedDict):
    """Sent first, on connecting: every open public table."""

    type: Literal["lobbies"]
    lobbies: list[Table]


@with_config(CLOSED)
class LobbyChanged(TypedDict):
    """A table changed (created, joined, left, named, started, closed). Of two snapshots of one
    table keep the one with the higher ``revision``. Private tables reach only their players."""

    type: Literal["lobby"]
    lobby: Table


@with_config(CLOSED)
class TournamentChanged(TypedDict):
    """A tournament changed: its summary, standings and the current round's pairings, as the
    REST routes under `/api/tournaments/{id}` return them."""

    type: Literal["tournament"]
    tournament: Annotated[dict[str, Any], Field(description="as `GET /api/tournaments/{id}`")]
    standings: Annotated[list[dict[str, Any]], Field(description="as `.../standings`")]
    pairings: Annotated[list[dict[str, Any]], Field(description="the current round's tables")]


@with_config(CLOSED)
class Matched(TypedDict):
    """Quick play found your match (after ``hello`` with a token)."""

    type: Literal["matched"]
    ticket: Annotated[str, Field(description="the queue ticket that was matched")]
    match_id: int


@with_config(CLOSED)
class TableReady(TypedDict):
    """A tournament table waits for you: go to ``match_id``. ``fresh``: the round has just
    been paired (count down and go); otherwise it has waited since before you connected."""

    type: Literal["table_ready"]
    match_id: int
    game: str
    tournament_id: int
    tournament: Annotated[str, Field(description="the tournament's name")]
    round: Annotated[int, Field(description="the round number, from 1")]
    names: Annotated[list[str], Field(description="each seat's castle name")]
    fresh: bool


@with_config(CLOSED)
class TableClosed(TypedDict):
    """A tournament table that waited for you is over."""

    type: Literal["table_closed"]
    match_id: int
    tournament_id: int


@with_config(CLOSED)
class YourTurn(TypedDict):
    """A match of yours started (``awaiting_you`` true) or stopped (false: you moved, in
    this page or another, or it ended) waiting for one of your seats. Sent only on such a
    change; `GET /api/accounts/me/matches` has the whole list with deadlines."""

    type: Literal["your_turn"]
    match_id: int
    awaiting_you: Annotated[bool, Field(description="whether the match now waits for you")]


LOBBY_MESSAGES: tuple[type, ...] = (
    Lobbies,
    LobbyChanged,
    TournamentChanged,
    Matched,
    TableReady,
    TableClosed,
    YourTurn,
    RematchOffer,
    RematchStarted,
    RematchExpired,
    Error,
)
