"""Ember's actions (game id ``ember``), one type per action ``type``."""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired

from pydantic import Field, with_config
from typing_extensions import TypedDict

from app.protocol.common import CLOSED, Seat

HeroId = Literal["yvera", "serephene", "rowl", "kaldoren"]
Uid = Annotated[
    int,
    Field(
        ge=0,
        description="a physical card's uid, as the view shows it (`uid`); it tells nothing "
        "about the card",
    ),
]
TargetSeat = Annotated[
    Seat | None,
    Field(
        description=(
            "an attack's target: the opponent's seat (required when the card attacks and "
            "a legal target exists); absent or null: none"
        )
    ),
]
TargetCard = Annotated[
    Uid | None,
    Field(
        description=(
            "the card the attack takes, destroys or returns, in that opponent's "
            "emberscape (for cards that name one); absent or null: none"
        )
    ),
]
Choice = Annotated[
    Uid | None,
    Field(
        description=(
            "a card's own choice (Seductress, Tidal Recall, Transmute, Rune Swap, Hex): "
            "the card of your hand or emberscape it names, as it was before the card's "
            "own draws; absent or null: none"
        )
    ),
]


@with_config(CLOSED)
class EmberHero(TypedDict):
    """Choose your hero at set-up (in turn, from the first seat; a hero taken is gone)."""

    type: Literal["hero"]
    hero: Annotated[HeroId, Field(description="the hero, whose 30-card deck you play")]


@with_config(CLOSED)
class EmberPass(TypedDict):
    """Mode phase: keep the mode you have (not with an empty mode pile); response window:
    answer nothing (the default at its deadline)."""

    type: Literal["pass"]


@with_config(CLOSED)
class EmberMode(TypedDict):
    """Mode phase: put a card of your hand onto your mode pile (its mode is yours now)."""

    type: Literal["mode"]
    card: Annotated[Uid, Field(description="the card in your hand")]


@with_config(CLOSED)
class EmberPlay(TypedDict):
    """Play phase: play a card from your hand, declaring its target and choice with it."""

    type: Literal["play"]
    card: Annotated[Uid, Field(description="the card in your hand")]
    target_seat: NotRequired[TargetSeat]
    target_card: NotRequired[TargetCard]
    choice: NotRequired[Choice]


@with_config(CLOSED)
class EmberArcane(TypedDict):
    """Arcane phase: play your next arcane card (flipped from your arcane pile), declaring
    its target and choice."""

    type: Literal["arcane"]
    target_seat: NotRequired[TargetSeat]
    target_card: NotRequired[TargetCard]
    choice: NotRequired[Choice]


@with_config(CLOSED)
class EmberRespond(TypedDict):
    """Response window: answer the top of the stack with a response card."""

    type: Literal["respond"]
    card: Annotated[
        Uid,
        Field(description="a response card in your hand, or face down in your emberscape"),
    ]


@with_config(CLOSED)
class EmberDiscard(TypedDict):
    """Over the hand limit (9) at the end of your turn: discard a card of your hand (one
    card per action)."""

    type: Literal["discard"]
    card: Annotated[Uid, Field(description="the card in your hand")]


@with_config(CLOSED)
class EmberResign(TypedDict):
    """Leave play: your cards stay where they are, untouchable; you are placed last."""

    type: Literal["resign"]


EmberAction = Annotated[
    EmberHero
    | EmberPass
    | EmberMode
    | EmberPlay
    | EmberArcane
    | EmberRespond
    | EmberDiscard
    | EmberResign,
    Field(discriminator="type", description="an Ember action, by its `type`"),
]
