"""The Castle Rampage view (``engines/rampage/view.py``): own hand, public piles, stack sizes."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.api.responses.common import Out, OutcomeOut


class RampagePlayer(Out):
    """One player's public facts (face-down Gate and Castle cards are never shown)."""

    name: str = Field(description="the castle's name")
    hand_size: int = Field(description="cards in hand")
    gate_size: int = Field(description="cards left in the Gate")
    castle_size: int = Field(description="cards left in the Castle")
    permanents: list[str] = Field(description="its permanents in play, by card name")
    placed: int = Field(description="cards it ever placed into Gate and Castle")
    lost: int = Field(description="its structure cards destroyed")
    chosen: bool = Field(description="it has split its cards at set-up")
    resigned: bool = Field(description="it resigned or forfeited")


class RampageView(Out):
    """What a Castle Rampage seat (or a spectator) may know."""

    game: Literal["rampage"] = Field(description="the game: `rampage`")
    phase: Literal["setup", "play", "over"] = Field(description="`setup`, `play` or `over`")
    seats: int = Field(description="the number of seats (2)")
    to_act: list[int] = Field(description="seats that may act now")
    outcome: OutcomeOut | None = Field(description="the result once over, else null")
    seat: int | None = Field(description="whose view this is (null: a spectator's)")
    first_seat: int = Field(description="the seat that plays first")
    setup_round: int = Field(description="the set-up round, from 1")
    active: int | None = Field(description="the seat whose turn it is (null during set-up)")
    turn: int = Field(description="turns started so far, both players counted")
    defended: bool = Field(description="this turn's one defence placement is used")
    veteran_played: bool = Field(description="a Veteran was played this turn (once a turn)")
    draw_size: int = Field(description="cards left in the draw pile")
    discard: list[str] = Field(description="the discard pile, by card name, oldest first")
    players: list[RampagePlayer] = Field(description="both players' public facts, by seat")
    hand: list[str] | None = Field(description="this seat's hand (null: a spectator)")
    dealt: list[str] | None = Field(
        description="this set-up round's five cards (null: a spectator)"
    )
    aside: list[str] | None = Field(
        description="cards set aside at set-up: the starting hand (null: a spectator)"
    )
