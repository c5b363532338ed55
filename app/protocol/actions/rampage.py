"""Castle Rampage's actions (game id ``rampage``), one type per action ``type``."""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired

from pydantic import Field, with_config
from typing_extensions import TypedDict

from app.protocol.common import CLOSED

CardId = Annotated[
    str,
    Field(description="a card id, `kind#n` (`axe_man#3`), as the seat's view shows it"),
]
UnitType = Literal["knight", "archer", "warrior"]
Pay = Annotated[
    list[CardId],
    Field(description="other, distinct cards of the hand, discarded to pay the cost"),
]


@with_config(CLOSED)
class RampageSetup(TypedDict):
    """Split four of the five dealt cards between Gate and Castle (both seats at once, in
    each of the two set-up rounds); the fifth is set aside for the starting hand."""

    type: Literal["setup"]
    gate: Annotated[
        list[CardId],
        Field(min_length=2, max_length=2, description="two dealt cards for the Gate, top first"),
    ]
    castle: Annotated[
        list[CardId],
        Field(min_length=2, max_length=2, description="two dealt cards for the Castle, top first"),
    ]


@with_config(CLOSED)
class RampageEndTurn(TypedDict):
    """End the turn (the default, applied on a time-out)."""

    type: Literal["end_turn"]


@with_config(CLOSED)
class RampageDefend(TypedDict):
    """Put one hand card face down under the Gate or the Castle, without its effect (once a
    turn)."""

    type: Literal["defend"]
    card: CardId
    to: Annotated[Literal["gate", "castle"], Field(description="the structure it goes under")]
    pay: NotRequired[
        Annotated[
            list[CardId],
            Field(description="the Ogre only: exactly two other hand cards to discard"),
        ]
    ]


@with_config(CLOSED)
class RampagePlay(TypedDict):
    """Play a card from the hand: pay its cost, carry out its text, then discard it
    (permanents stay in play)."""

    type: Literal["play"]
    card: CardId
    pay: NotRequired[
        Annotated[
            list[CardId],
            Field(
                description=(
                    "the discards of the card's cost, or a Scheme's units (one more of its "
                    "bonus unit adds the bonus); absent: nothing"
                )
            ),
        ]
    ]
    as_: NotRequired[
        Annotated[
            dict[CardId, UnitType],
            Field(
                alias="as",
                description=(
                    "Schemes: which unit symbol each Giant or Mercenary in `pay` counts as "
                    "(optional when unambiguous)"
                ),
            ),
        ]
    ]
    name: NotRequired[
        Annotated[
            UnitType,
            Field(description="Priest only (and required): the unit type the opponent discards"),
        ]
    ]
    target: NotRequired[
        Annotated[
            int | str | None,
            Field(
                description=(
                    "Archer: a position in the opponent's hand, from 0 (required while it "
                    "holds cards); Fire Arrows: the id of an opponent's permanent card; absent "
                    "or null for every other card"
                )
            ),
        ]
    ]


@with_config(CLOSED)
class RampageResign(TypedDict):
    """Give up the match (either seat, while it runs)."""

    type: Literal["resign"]


RampageAction = Annotated[
    RampageSetup | RampageEndTurn | RampageDefend | RampagePlay | RampageResign,
    Field(discriminator="type", description="a Castle Rampage action, by its `type`"),
]
