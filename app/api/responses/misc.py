"""Small responses: the games listed, health, practice scenarios, a new practice match."""

from __future__ import annotations

from pydantic import Field

from app.api.responses.common import Out


class GameSummary(Out):
    """A game this server plays (``GET /api/games/{id}`` adds its actions' schema)."""

    id: str = Field(description="the game id (`ambush`, `rampage`, `castles`, `ember`)")
    title: str = Field(description="the game's name, for people")
    min_seats: int = Field(description="the fewest seats a table of it may have")
    max_seats: int = Field(description="the most seats a table of it may have")
    bots: bool = Field(description="true: server bots can take its seats")
    correspondence: bool = Field(
        description="true: its tables may be played by correspondence (days per move); "
        "false: real-time only (Ambush!: its grab races need everyone at once)"
    )


class HealthOut(Out):
    """The process is up and its database answers."""

    status: str = Field(description="always `ok` (anything else is an error reply)")
    live_matches: int = Field(description="matches running in this process")
    node: str | None = Field(default=None, description="with several processes: this one's id")
    relayed_sockets: int | None = Field(
        default=None, description="with several processes: match sockets piped to others"
    )


class StepDone(Out):
    """What completes a practice step (all absent: the last step, which stays)."""

    event: str | list[str] | None = Field(
        default=None, description="an event type (or one of several) that completes it"
    )
    by: str | None = Field(
        default=None, description="whose event: `me`, `other`, or absent (anyone)"
    )
    next: bool | None = Field(default=None, description="true: the player presses Next")


class PracticeStep(Out):
    """One guided step of a practice match."""

    id: str = Field(description="the step's id")
    hint: str = Field(description="the hint shown (facts in braces filled in by the client)")
    done: StepDone = Field(description="what completes it")
    act: list[str] = Field(description="the action types it asks for")
    wait: str = Field(description="shown while the seat has nothing to do")
    needs: str | None = Field(
        default=None, description="a condition on what the seat knows: `owe`, `two_ambushes`"
    )
    otherwise: str | None = Field(default=None, description="shown while `needs` does not hold")
    skip: bool | None = Field(default=None, description="a Next button while it does not")


class PracticeScenario(Out):
    """One game's practice."""

    game: str = Field(description="the game id")
    title: str = Field(description="its title")
    intro: str = Field(description="its introduction")
    seats: int = Field(description="seats: the player in seat 0, bots after")
    moves: dict[str, str] = Field(description="a short line per action type, shown when legal")
    steps: list[PracticeStep] = Field(description="the guided steps in order")


class PracticeStarted(PracticeScenario):
    """A practice match started, with its scenario."""

    match_id: int = Field(description="the new match")
    seat: int = Field(description="the player's seat (0)")
