"""The Castles deck view (``engines/castles/view.py``): the open board, own hand, Spy reveals."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.api.responses.common import Out, OutcomeOut


class CastlesCardRef(Out):
    """A card out of play: its id and kind."""

    id: int = Field(description="the card's id, stable for the match")
    kind: str = Field(description="the card's kind (its name in the rules)")


class CastlesInPlay(Out):
    """A card on the board."""

    id: int = Field(description="the card's id, stable for the match")
    kind: str = Field(description="the card's kind (its name in the rules)")
    type: str = Field(description="the kind's card type in the rules")
    side: int = Field(description="its owner's side: 0 or 1 (seat modulo 2)")
    zone: int = Field(description="the zone it stands in, 0 to 5")
    hp: int = Field(description="its HP left")
    max_hp: int = Field(description="its kind's HP")
    moves: int = Field(description="moves left this turn")
    acts: int = Field(description="actions left this turn")
    charged: bool = Field(description="Charge: two zones forwards and +1 damage this turn")


class CastlesZone(Out):
    """One of the six zones."""

    zone: int = Field(description="the zone, 0 to 5")
    side: int = Field(description="the side it belongs to: 0 or 1")
    role: Literal["castle", "middle", "front"] = Field(description="`castle`, `middle` or `front`")
    terrain: Literal["plains", "hills", "high_hills", "lake", "forest", "marsh"] = Field(
        description="the zone's terrain"
    )


class CastlesWindow(Out):
    """A response window in the mover's turn (Trap, and with terrain opportunity strikes)."""

    side: int = Field(description="the defending side")
    seats: list[int] = Field(description="the defending seats that have not passed yet")
    entered: list[int] = Field(description="ids of the cards a Trap may target")
    crossing: list[int] = Field(description="ids of the cards an opportunity strike may hit")
    struck: list[int] = Field(description="ids of the defending Soldiers that already struck")
    deadline: int = Field(description="when the window closes, ms of match time")


class CastlesView(Out):
    """What a Castles seat (or a spectator) may know: the board is open, hands are not."""

    game: Literal["castles"] = Field(description="the game: `castles`")
    phase: Literal["turn", "response", "over"] = Field(
        description="`turn`, `response` (a response window) or `over`"
    )
    seats: int = Field(description="the number of seats: 2, or 4 (two teams of two)")
    to_act: list[int] = Field(description="seats that may act now")
    outcome: OutcomeOut | None = Field(description="the result once over, else null")
    seat: int | None = Field(description="whose view this is (null: a spectator's)")
    side: int | None = Field(description="this seat's side, 0 or 1 (null: a spectator)")
    teams: bool = Field(description="true: four seats in two teams")
    names: list[str] = Field(description="each seat's castle name, by seat")
    active: int = Field(description="the seat whose turn it is")
    turn: int = Field(description="the turn, from 1")
    max_turns: int = Field(description="the turn after which the game ends by exhaustion")
    zones: list[CastlesZone] = Field(description="the six zones in order")
    rivers: list[int] = Field(description="zone boundaries with a river (b: between b and b+1)")
    castle_hp: list[int] = Field(description="each side's castle HP, by side")
    in_play: list[CastlesInPlay] = Field(description="every card on the board")
    hand: list[CastlesCardRef] = Field(description="this seat's hand (empty for a spectator)")
    hand_sizes: list[int] = Field(description="cards in each seat's hand, by seat")
    known: dict[str, list[CastlesCardRef]] = Field(
        description="enemy cards this side's Spy revealed, by enemy seat number, while they "
        "stay in that hand (empty for a spectator)"
    )
    pile_sizes: list[int] = Field(description="cards in each draw pile")
    discard: list[CastlesCardRef] = Field(description="the discard pile, oldest first")
    ambush: bool = Field(description="the active side played Ambush this turn")
    trap_prompts: bool | None = Field(
        description="true while this seat still gets Trap windows (false once it sent "
        "`trap_prompts_off`; null: a spectator)"
    )
    window: CastlesWindow | None = Field(description="the open response window, else null")
