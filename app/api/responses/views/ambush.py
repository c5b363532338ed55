"""The Ambush! view (``engines/ambush/view.py``): the shared grid, castles, races."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.api.responses.common import Out, OutcomeOut

Cell = list[int]
CELL = "a grid cell as [x, y]"


class AmbushRules(Out):
    """The table options that shape play (all public)."""

    castle_hp: int = Field(description="each castle's starting HP")
    hand_size: int = Field(description="cards dealt to each hand")
    hand_limit: int = Field(description="the most cards a hand keeps after a race")
    grab_cooldown_ms: int = Field(description="ms a hand waits between two grabs in a race")
    ambush_idle_ms: int = Field(description="a race ends this many ms after its last grab")
    ambush_max_ms: int = Field(description="a race lasts at most this many ms")
    return_ms: int = Field(description="ms to return the cards over the hand limit")


class AmbushCastle(Out):
    """One seat's castle."""

    seat: int = Field(description="the seat number")
    name: str = Field(description="the castle's name")
    hp: int = Field(description="its HP left")
    ward: int = Field(description="damage its ward still absorbs")
    alive: bool = Field(description="false: destroyed or resigned")
    resigned: bool = Field(description="it resigned or forfeited")
    hand_count: int = Field(description="cards in its hand")
    captured_count: int = Field(description="cards it captured in races")


class AmbushCell(Out):
    """One face-down battlefield card."""

    cell: Cell = Field(description=CELL)
    card: str | None = Field(
        default=None, description="its card, only when this seat looked at it (Scout)"
    )


class AmbushExposed(Out):
    """The card exposed this turn, not yet placed."""

    cell: Cell = Field(description=CELL + " where it lies")
    card: str = Field(description="the card's name")
    seat: int = Field(description="the seat that exposed it")


class AmbushReserved(Out):
    """The card just played, waiting for its cell while an Elven Archer's cards are placed."""

    cell: Cell = Field(description=CELL + " it goes face down at")
    card: str = Field(description="the card's name")


class AmbushRace(Out):
    """A running Ambush! race; instants in ms of match time."""

    caller: int = Field(description="the seat that called Ambush!")
    started_at: int = Field(description="when the call was made, ms")
    ends_at: int = Field(description="when the race ends unless someone grabs, ms")
    deadline: int = Field(description="the same as `ends_at`")
    max_end: int = Field(description="the latest the race can end, ms")
    last_grab_at: int = Field(description="the last grab's instant (the call's, before any), ms")
    next_free: list[int] = Field(description="when each seat's hand may grab again, ms, by seat")
    busy: list[int] = Field(description="seats whose hand is not free yet after the last grab")
    grabs: int = Field(description="grabs so far")


class AmbushReturning(Out):
    """The hand-limit step after a race."""

    deadline: int = Field(description="when the owed cards are returned for the seat, ms")
    owed: list[list[int]] = Field(description="[seat, cards it still owes] pairs")


class AmbushCheck(Out):
    """The last Ambush! call's check."""

    caller: int = Field(description="the seat that called")
    valid: bool = Field(description="true: two Ambush! cards lay face down at the call")
    counts: list[int] = Field(description="Ambush! cards in each seat's captured pile, by seat")
    left: int = Field(description="Ambush! cards still face down on the grid")
    penalty: int = Field(
        description="cards of the caller's captured pile shuffled back for a false call (0: none)"
    )


class AmbushView(Out):
    """What an Ambush! seat (or a spectator) may know."""

    game: Literal["ambush"] = Field(description="the game: `ambush`")
    phase: Literal["turn", "placing", "ambush", "returning", "over"] = Field(
        description="`turn`, `placing` (an Elven Archer's cards), `ambush` (a race), "
        "`returning` (cards over the hand limit) or `over`"
    )
    seats: int = Field(description="the number of seats")
    to_act: list[int] = Field(description="seats that may act now (any living seat may call)")
    awaiting: list[int] = Field(description="seats whose clock runs (the game waits for them)")
    outcome: OutcomeOut | None = Field(description="the result once over, else null")
    options: AmbushRules = Field(description="the rules in force")
    turn: int = Field(description="the seat whose turn it is")
    turn_number: int = Field(description="turns played, from 1")
    step: Literal["expose", "play"] = Field(description="the turn's step: `expose` or `play`")
    deck_count: int = Field(description="cards left in the central deck")
    castles: list[AmbushCastle] = Field(description="every castle, by seat")
    battlefield: list[AmbushCell] = Field(description="the face-down cards, in grid order")
    exposed: AmbushExposed | None = Field(description="the exposed card, else null")
    reserved: AmbushReserved | None = Field(
        description="the played card waiting in the `placing` phase, else null"
    )
    placing_left: int = Field(description="cards still to place in the placing phase")
    race: AmbushRace | None = Field(description="the running race, else null")
    returning: AmbushReturning | None = Field(description="the hand-limit step, else null")
    last_check: AmbushCheck | None = Field(description="the last call's check, else null")
    quiet_turns: int = Field(
        description="turns in a row without a card played from a hand (two whole rounds end it)"
    )
    hand: list[str] | None = Field(
        default=None, description="this seat's hand, sorted (absent for a spectator)"
    )
