"""The Castles deck's actions (game id ``castles``), one type per action ``type``."""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired

from pydantic import Field, with_config
from typing_extensions import TypedDict

from app.protocol.common import CLOSED, Seat

CardId = Annotated[
    int,
    Field(
        ge=0,
        description="a card's id: its number in the match's card list, as the view shows it",
    ),
]
Zone = Annotated[
    int,
    Field(
        ge=0,
        le=5,
        description=(
            "a zone, 0 to 5: Red Castle, Red Middle, Red Front, Blue Front, Blue Middle, "
            "Blue Castle (Red is side 0: seats 0 and 2; Blue side 1: seats 1 and 3)"
        ),
    ),
]


@with_config(CLOSED)
class CastlesEndTurn(TypedDict):
    """End the side's turn (the default, applied on a time-out)."""

    type: Literal["end_turn"]


@with_config(CLOSED)
class CastlesResign(TypedDict):
    """Concede the match for the whole side (at any time)."""

    type: Literal["resign"]


@with_config(CLOSED)
class CastlesPass(TypedDict):
    """In a response window: do nothing (the default, applied at its deadline)."""

    type: Literal["pass"]


@with_config(CLOSED)
class CastlesTrapPromptsOff(TypedDict):
    """In a response window: pass, and open no more Trap windows for this seat this match."""

    type: Literal["trap_prompts_off"]


@with_config(CLOSED)
class CastlesTrap(TypedDict):
    """In a Trap window: spring a Trap from the hand on an enemy card that entered your
    Middle Zone."""

    type: Literal["trap"]
    card: Annotated[CardId, Field(description="the Trap card in your hand")]
    target: Annotated[CardId, Field(description="the enemy card the window is about")]


@with_config(CLOSED)
class CastlesStrike(TypedDict):
    """In a terrain window (High Hills, a River): one of your Soldiers strikes the enemy card
    that entered or crossed, from any distance."""

    type: Literal["strike"]
    card: Annotated[CardId, Field(description="your Soldier in play that strikes")]
    target: Annotated[CardId, Field(description="the enemy card the window is about")]


@with_config(CLOSED)
class CastlesMove(TypedDict):
    """Move one of your side's cards in play (each once a turn, not on the turn it came in)."""

    type: Literal["move"]
    card: Annotated[CardId, Field(description="your card in play")]
    to: Annotated[Zone, Field(description="the zone it moves to")]
    with_: NotRequired[
        Annotated[
            list[CardId],
            Field(
                alias="with",
                description=(
                    "a Catapult or Cannon only: your cards in play that carry it (using their "
                    "moves); absent: none"
                ),
            ),
        ]
    ]


@with_config(CLOSED)
class CastlesPlay(TypedDict):
    """Play a card from your hand: a Soldier or Civilian into your Castle or Middle Zone, or
    an Action card (Buildings come in through a Builder's `act`)."""

    type: Literal["play"]
    card: Annotated[CardId, Field(description="the card in your hand")]
    zone: NotRequired[
        Annotated[
            Zone,
            Field(
                description=(
                    "a Soldier or Civilian: your Castle or Middle Zone; Incendiarism: the "
                    "zone it burns"
                )
            ),
        ]
    ]
    target: NotRequired[
        Annotated[
            CardId,
            Field(
                description="a targeted Action card (Repair, Medicine, Charge, Rout): a card "
                "in play"
            ),
        ]
    ]
    targets: NotRequired[
        Annotated[
            list[CardId],
            Field(
                description=(
                    "Resurrection: two different Soldiers of the discard pile (one if only one "
                    "is there)"
                )
            ),
        ]
    ]


@with_config(CLOSED)
class CastlesAct(TypedDict):
    """Use the Action of one of your cards in play (once a turn, not on the turn it came
    in): an attack, a heal, a Builder's building, the Spy's look."""

    type: Literal["act"]
    card: Annotated[CardId, Field(description="your card in play that acts")]
    target: NotRequired[
        Annotated[CardId, Field(description="the card in play it attacks or heals")]
    ]
    build: NotRequired[
        Annotated[
            CardId,
            Field(description="a Builder: the Building in your hand it plays into its zone"),
        ]
    ]
    seat: NotRequired[
        Annotated[
            Seat,
            Field(
                description=(
                    "the Spy (in the enemy Castle Zone): the enemy seat whose hand it reveals "
                    "(required when the enemy side has two seats)"
                )
            ),
        ]
    ]


CastlesAction = Annotated[
    CastlesEndTurn
    | CastlesResign
    | CastlesPass
    | CastlesTrapPromptsOff
    | CastlesTrap
    | CastlesStrike
    | CastlesMove
    | CastlesPlay
    | CastlesAct,
    Field(discriminator="type", description="a Castles deck action, by its `type`"),
]
