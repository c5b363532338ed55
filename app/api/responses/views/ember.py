"""The Ember view (``engines/ember/view.py``): own hand and face-down cards, public areas, counts
of the rest. Cards are named by uid (an index in deck order after the shuffle: it tells
nothing about the card) and, where the viewer may know it, by card id."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.api.responses.common import EmberOutcomeOut, Out

UID = "the card's uid, stable for the match"


class EmberCard(Out):
    """A card the viewer may know."""

    uid: int = Field(description=UID)
    card: str = Field(description="the card's id (its name in the rules)")


class EmberScapeCard(Out):
    """A card of an emberscape."""

    uid: int = Field(description=UID)
    face_down: bool = Field(description="it lies face down")
    card: str | None = Field(
        default=None,
        description="the card's id; absent for a face-down card of another seat's scape",
    )


class EmberPlayer(Out):
    """One player's public facts (and, in its own entry, its face-down cards and stones)."""

    seat: int = Field(description="the seat number")
    name: str = Field(description="the player's castle name")
    hero: str | None = Field(description="the hero chosen (null: not yet)")
    resigned: bool = Field(description="it resigned or forfeited")
    mode: str | None = Field(description="the mode in force, from its mode card (null: none)")
    mode_card: str | None = Field(description="the card on top of its mode pile (null: none)")
    mode_pile: int = Field(description="cards in its mode pile")
    deck: int = Field(description="cards in its deck")
    hand: int = Field(description="cards in its hand")
    arcane: int = Field(description="its arcane cards left")
    scape: list[EmberScapeCard] = Field(description="its emberscape")
    collection: int = Field(description="cards in its collection pile")
    known_stones: int = Field(description="stones of the face-up part of its collection")
    discard: list[str] = Field(description="its discard pile, by card id, oldest first")
    stones: int | None = Field(
        default=None,
        description="its whole collection's stones: only in the viewer's own entry",
    )


class EmberStackItem(Out):
    """The played card or a response answering it."""

    role: Literal["card", "response"] = Field(description="`card` (the card played) or `response`")
    seat: int = Field(description="the seat that played it")
    uid: int = Field(description=UID)
    card: str | None = Field(
        default=None, description="the card's id; absent when played face down by another seat"
    )
    target_seat: int | None = Field(description="the seat it targets (null: none)")
    target_card: int | None = Field(description="the uid of the card it targets (null: none)")
    answers: int | None = Field(
        description="a response: the index in the stack of the item it answers (null: a card)"
    )
    cancelled: bool = Field(description="a Dispel cancelled it")
    stopped: bool = Field(description="its attack was stopped")
    choice: int | None = Field(
        default=None,
        description="the own-card choice declared with it (a uid or null): only its player "
        "sees this key",
    )


class EmberWindow(Out):
    """The open response window."""

    seat: int = Field(description="the seat that may respond")
    deadline: int = Field(description="when it closes, ms of match time")


class EmberView(Out):
    """What an Ember seat (or a spectator) may know."""

    game: Literal["ember"] = Field(description="the game: `ember`")
    phase: Literal["hero", "mode", "play", "respond", "arcane", "discard", "turn_over", "over"] = (
        Field(description="the phase of the turn (`hero`: heroes are being chosen)")
    )
    seats: int = Field(description="the number of seats")
    to_act: list[int] = Field(description="seats that may act now")
    outcome: EmberOutcomeOut | None = Field(description="the result once over, else null")
    you: int | None = Field(description="whose view this is (null: a spectator's)")
    turn: int = Field(description="the seat whose turn it is")
    round: int = Field(description="the round, from 1")
    max_rounds: int = Field(description="the round after which the game ends")
    players: list[EmberPlayer] = Field(description="every player, by seat")
    stack: list[EmberStackItem] = Field(description="the played card, then its responses")
    window: EmberWindow | None = Field(description="the open response window, else null")
    choosing: list[int] = Field(description="seats still to choose a hero, in turn order")
    arcane_card: EmberCard | None = Field(
        description="the arcane card revealed in the `arcane` phase, else null"
    )
    hand: list[EmberCard] | None = Field(
        default=None, description="this seat's hand (absent for a spectator)"
    )
