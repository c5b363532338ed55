"""What the server sends on a match socket (``/ws/matches/{match_id}``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired

from pydantic import ConfigDict, Field, with_config
from typing_extensions import TypedDict

from app.protocol.common import (
    CLOSED,
    EngineEvent,
    Error,
    LegalAction,
    MatchTime,
    RematchExpired,
    RematchOffer,
    RematchStarted,
    Seat,
    View,
)

Version = Annotated[int, Field(ge=0, description="the match version: the number of actions played")]
Awaiting = Annotated[
    list[Seat], Field(description="the seats the match waits for now (whose move it is)")
]


@with_config(CLOSED)
class Bot(TypedDict):
    kind: Annotated[str, Field(description="`random`, `heuristic` or `practice`")]
    level: Annotated[str, Field(description="`easy`, `normal` or `hard`")]


@with_config(CLOSED)
class Player(TypedDict):
    """Who sits at a seat."""

    name: Annotated[str | None, Field(description="the player's name; null for a bot")]
    castle: Annotated[str, Field(description="the seat's castle name")]
    bot: Annotated[
        Bot | None, Field(description="the server bot playing the seat; null for an account")
    ]
    bot_account: Annotated[
        bool,
        Field(description="true: the account is a bot account (a program playing via the API)"),
    ]


@with_config(CLOSED)
class Missed(TypedDict):
    """A version played while this connection was away: what happened, not a view."""

    version: Version
    at_ms: MatchTime
    events: list[EngineEvent]


@with_config(CLOSED)
class Welcome(TypedDict):
    """The answer to ``hello`` (and to ``resync``): the whole match as this seat sees it.
    Nothing the connection receives after it is older than its ``version``."""

    type: Literal["welcome"]
    match_id: int
    seat: Annotated[
        Seat | None, Field(description="the seat this connection plays; null: watching")
    ]
    seats: Annotated[
        list[Seat],
        Field(description="every seat the account holds here (a hot-seat table: several)"),
    ]
    version: Version
    view: View
    legal: Annotated[
        list[LegalAction], Field(description="the seat's legal actions now; [] when it may not act")
    ]
    awaiting: Awaiting
    at_ms: MatchTime
    clock_rate: Annotated[
        float, Field(description="match ms per real ms (1 in play; tests run faster)")
    ]
    status: Annotated[Literal["running", "finished"], Field(description="the match's status")]
    rated: Annotated[
        bool, Field(description="true: the result moves the players' ledger; false: a casual match")
    ]
    resumed: Annotated[
        bool,
        Field(
            description=(
                "true: `last_version` was recent enough to resume from, and `missed` holds "
                "every version since it; false: a fresh start (read the story from the REST "
                "event log if you need it)"
            )
        ),
    ]
    missed: Annotated[
        list[Missed], Field(description="the versions after `last_version`, oldest first")
    ]
    names: Annotated[list[str], Field(description="each seat's castle name, by seat")]
    players: Annotated[list[Player], Field(description="who sits at each seat, by seat")]


@with_config(CLOSED)
class PatchWhole(TypedDict):
    """A new version with the whole view: it replaces what the client holds."""

    type: Literal["patch"]
    version: Version
    at_ms: MatchTime
    events: Annotated[list[EngineEvent], Field(description="what this version did")]
    view: View
    legal: list[LegalAction]
    awaiting: Awaiting


# The functional form: ``del`` is a Python keyword.
ViewDiff = TypedDict(
    "ViewDiff",
    {
        "set": NotRequired[dict[str, Any]],
        "sub": NotRequired[dict[str, dict[str, Any]]],
        "del": NotRequired[list[str]],
    },
)
DIFF_RULES = (
    "How the view changed: `del` removes top-level keys, `set` replaces or adds top-level keys "
    'whole, `sub` replaces entries one level down (`{"castles": {"2": {...}}}`: index 2 of the '
    'list at `castles`, which keeps its length, or key `"2"` of the object there). An empty '
    "part is left out."
)
setattr(  # noqa: B010 (no class syntax for a ``del`` key)
    ViewDiff,
    "__pydantic_config__",
    ConfigDict(extra="forbid", json_schema_extra={"description": DIFF_RULES}),
)


@with_config(CLOSED)
class PatchDiff(TypedDict):
    """A new version as a change to the view held at ``base`` (the previous version). A
    client whose version is not ``base`` sends ``resync``. ``legal`` and ``awaiting`` come
    only when they changed; no ``diff`` when the view did not change."""

    type: Literal["patch"]
    version: Version
    at_ms: MatchTime
    events: Annotated[list[EngineEvent], Field(description="what this version did")]
    base: Annotated[int, Field(description="the version this diff applies to")]
    diff: NotRequired[ViewDiff]
    legal: NotRequired[list[LegalAction]]
    awaiting: NotRequired[Awaiting]


@with_config(CLOSED)
class Ack(TypedDict):
    """The action numbered ``client_seq`` was played: it made ``version``."""

    type: Literal["ack"]
    client_seq: int
    version: Version
    duplicate: NotRequired[
        Annotated[bool, Field(description="true: a repeat of an action already played")]
    ]


@with_config(CLOSED)
class GrabResult(TypedDict):
    """The decision on a grab: won (the card is yours) or not, and why not (``code``)."""

    type: Literal["grab_result"]
    client_seq: int
    cell: Annotated[Any, Field(description="the cell grabbed, as sent")]
    won: bool
    decided_at: Annotated[int, Field(description="match time in ms of the decision")]
    code: NotRequired[
        Annotated[
            str,
            Field(
                description=(
                    "why it was not won: `lost` (someone was earlier), or a refusal such as "
                    "`ambush/no_race`, `ambush/race_over`, `ambush/empty_cell`, "
                    "`ambush/hand_busy`"
                )
            ),
        ]
    ]
    v: NotRequired[
        Annotated[
            int,
            Field(
                description=(
                    "the match ms the grab was judged at: when version `ref` reached you plus "
                    "your `dt`, kept within the round trip the server measured on your link"
                )
            ),
        ]
    ]
    retry: NotRequired[
        Annotated[
            bool, Field(description="true: not judged (the server could not write); grab again")
        ]
    ]
    duplicate: NotRequired[bool]


@with_config(CLOSED)
class Clock(TypedDict):
    """The turn clocks: sent whenever a deadline starts, moves or stops."""

    type: Literal["clock"]
    now_ms: MatchTime
    deadlines: Annotated[
        dict[str, int], Field(description="seat (as a string) to the match ms of its deadline")
    ]
    turn_ms: Annotated[int | None, Field(description="ms per turn; null: no turn clock")]
    banks: NotRequired[
        Annotated[dict[str, int], Field(description="seat to the ms left in its match bank")]
    ]
    days_per_move: NotRequired[
        Annotated[
            int,
            Field(
                description="a correspondence table's days per move (its deadlines are dates: "
                "show them as such, with the welcome's `clock_rate` to turn match ms into "
                "wall-clock time)"
            ),
        ]
    ]


@with_config(CLOSED)
class Presence(TypedDict):
    """A seat's player lost every connection (``connected`` false) or is back."""

    type: Literal["presence"]
    seat: Seat
    connected: bool


@with_config(CLOSED)
class ChatLine(TypedDict):
    """A chat line from a seated player (spectators read, never talk)."""

    type: Literal["chat"]
    seat: Seat
    name: Annotated[str, Field(description="the speaker's castle name")]
    text: str


@with_config(CLOSED)
class Ping(TypedDict):
    """Answer at once with ``pong`` and the same ``nonce``: the server measures the link
    (grab races are judged by it) and drops a connection silent for 5 s."""

    type: Literal["ping"]
    nonce: int


@with_config(CLOSED)
class SeatResult(TypedDict):
    destroyed: Annotated[bool, Field(description="its castle fell")]
    resigned: Annotated[bool, Field(description="it resigned (or forfeited)")]
    damage: Annotated[float, Field(description="share of its castle destroyed, 0 to 1")]


@with_config(CLOSED)
class Outcome(TypedDict):
    placings: Annotated[
        list[list[Seat]], Field(description="seats from first to last; a tie shares a list")
    ]
    seats: Annotated[dict[str, SeatResult], Field(description="each seat's result, by seat")]
    reason: Annotated[str, Field(description="why it ended, e.g. `castle_destroyed`, `resigned`")]


@with_config(CLOSED)
class Ended(TypedDict):
    """The match is over (sent once its result is recorded, after the last ``patch``, and
    after the ``welcome`` of any later connection). Nothing more will happen but chat and
    rematch news; the socket stays open for them."""

    type: Literal["ended"]
    match_id: int
    version: Version
    outcome: Outcome
    rated: Annotated[bool, Field(description="whether the result moves the ledger")]
    ledger: Annotated[
        dict[str, int] | None,
        Field(
            description=(
                "each seat's change on the 1500-point ledger (they sum to zero); null for a "
                "casual match. Rating changes: `GET /api/matches/{id}`"
            )
        ),
    ]


# The one answer each action gets.
Answer = Ack | Error | GrabResult

MATCH_MESSAGES: tuple[type, ...] = (
    Welcome,
    PatchWhole,
    PatchDiff,
    Ack,
    Error,
    GrabResult,
    Clock,
    Presence,
    ChatLine,
    Ping,
    Ended,
    RematchOffer,
    RematchStarted,
    RematchExpired,
)
