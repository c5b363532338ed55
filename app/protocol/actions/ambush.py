"""Ambush!'s actions (game id ``ambush``), one type per action ``type``."""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired

from pydantic import Field, with_config
from typing_extensions import TypedDict

from app.protocol.common import CLOSED, Seat

Coordinate = Annotated[int, Field(ge=-1000, le=1000)]
Cell = Annotated[
    tuple[Coordinate, Coordinate],
    Field(
        description=(
            "a battlefield cell `[x, y]`, two integers from -1000 to 1000; the deck stands at "
            "`[0, 0]` and cells touch their four neighbours"
        )
    ),
]
CardId = Annotated[
    str,
    Field(description="a card id, as the view shows it in the seat's `hand` (`cards.json`)"),
]


@with_config(CLOSED)
class AmbushExpose(TypedDict):
    """Expose the top card of the deck onto the battlefield: the first step of a turn."""

    type: Literal["expose"]
    cell: Annotated[
        Cell, Field(description="where it goes: a free cell next to a card already down")
    ]


@with_config(CLOSED)
class AmbushPlay(TypedDict):
    """Play a card from the hand: its damage and text, then it goes face down on ``cell``."""

    type: Literal["play"]
    card: CardId
    cell: Annotated[
        Cell, Field(description="where the card goes face down: a free cell next to a card")
    ]
    target: NotRequired[
        Annotated[
            Seat | None,
            Field(
                description=(
                    "the living opponent's seat the card hits: required for a card that "
                    "names a target, absent or null for every other card"
                )
            ),
        ]
    ]
    look: NotRequired[
        Annotated[
            Cell | None,
            Field(
                description=(
                    "Scout only: the face-down card to look at (required when a card is down)"
                )
            ),
        ]
    ]
    swap: NotRequired[
        Annotated[
            tuple[Cell, Cell] | None,
            Field(
                description=(
                    "Trickster only: two different face-down cards to swap (required when "
                    "two or more are down)"
                )
            ),
        ]
    ]


@with_config(CLOSED)
class AmbushPlace(TypedDict):
    """Put down one of the cards an Elven Archer drew, one action per card."""

    type: Literal["place"]
    cell: Annotated[Cell, Field(description="a free cell next to a card already down")]


@with_config(CLOSED)
class AmbushPass(TypedDict):
    """Play no card this turn (allowed in every play step, an empty hand included)."""

    type: Literal["pass"]


@with_config(CLOSED)
class AmbushCallAmbush(TypedDict):
    """Call Ambush!: a grab race starts at once for every seat; refused while cards are being
    placed, a race runs or hands are over the limit."""

    type: Literal["call_ambush"]


@with_config(CLOSED)
class AmbushGrab(TypedDict):
    """Grab a face-down card during a race. On a match socket send it as a `grab` message
    (timed by when you saw the state), not as an `action`."""

    type: Literal["grab"]
    cell: Annotated[Cell, Field(description="the cell of a card on the battlefield")]


@with_config(CLOSED)
class AmbushReturn(TypedDict):
    """Give back cards over the hand limit after a race (within `return_ms` of its end)."""

    type: Literal["return"]
    cards: Annotated[
        list[CardId],
        Field(description="exactly as many cards as the seat owes, all from its hand"),
    ]


@with_config(CLOSED)
class AmbushResign(TypedDict):
    """Leave the game: the castle is out and its cards go into the deck."""

    type: Literal["resign"]


AmbushAction = Annotated[
    AmbushExpose
    | AmbushPlay
    | AmbushPlace
    | AmbushPass
    | AmbushCallAmbush
    | AmbushGrab
    | AmbushReturn
    | AmbushResign,
    Field(discriminator="type", description="an Ambush! action, by its `type`"),
]
