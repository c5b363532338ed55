"""Pieces shared by the messages of both sockets: errors, rematch news, a game's view."""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired

from pydantic import ConfigDict, Field, with_config
from typing_extensions import TypedDict

CLOSED = ConfigDict(extra="forbid")

Seat = Annotated[int, Field(ge=0, description="a seat number, from 0")]
MatchTime = Annotated[int, Field(description="match time in ms since the match started")]
View = Annotated[
    dict[str, Any],
    Field(
        description=(
            "what this connection's seat may know of the match (a spectator's view shows no "
            "hand and no face-down card); its keys are the game's (`game` names it) and "
            "`outcome` turns from null to the result when the match is over"
        )
    ),
]
LegalAction = Annotated[
    dict[str, Any],
    Field(
        description=(
            "an action the seat may send now, complete: `type` and the game's fields "
            "(send it as `action`, or a `grab` message for a `grab`)"
        )
    ),
]
EngineEvent = Annotated[
    dict[str, Any],
    Field(description="something that happened, as the receiver may know it: `type` and fields"),
]


@with_config(CLOSED)
class Error(TypedDict):
    """A refusal. With ``client_seq``, the action of that number was not played; with
    ``retry``, it may be sent again (as a new action) after ``retry_after_ms``."""

    type: Literal["error"]
    code: Annotated[str, Field(description="stable, `area/reason`: switch on this")]
    message: Annotated[str, Field(description="for people; may change")]
    client_seq: NotRequired[Annotated[int, Field(description="the action or grab this refuses")]]
    retry: NotRequired[
        Annotated[bool, Field(description="true: not played; the same action may succeed later")]
    ]
    retry_after_ms: NotRequired[
        Annotated[int, Field(ge=0, description="ms to wait before sending it again")]
    ]
    duplicate: NotRequired[
        Annotated[
            bool, Field(description="true: the answer to a repeat of an action answered before")
        ]
    ]


@with_config(CLOSED)
class RematchOffer(TypedDict):
    """A rematch offer after a match: who accepted, who is awaited, until when."""

    type: Literal["rematch"]
    match_id: Annotated[int, Field(description="the finished match the offer is for")]
    accepted: Annotated[list[Seat], Field(description="seats that accepted")]
    waiting: Annotated[list[Seat], Field(description="seats still to accept")]
    expires_in_s: Annotated[float, Field(description="seconds until the offer lapses")]
    new_match_id: Annotated[int | None, Field(description="the rematch, once everyone accepted")]


@with_config(CLOSED)
class RematchStarted(TypedDict):
    """Everyone accepted: the rematch is on (open ``match_id``)."""

    type: Literal["rematch_started"]
    match_id: Annotated[int, Field(description="the new match")]
    from_match_id: Annotated[int, Field(description="the match it is a rematch of")]


@with_config(CLOSED)
class RematchExpired(TypedDict):
    """The offer lapsed before everyone accepted."""

    type: Literal["rematch_expired"]
    match_id: Annotated[int, Field(description="the finished match the offer was for")]
