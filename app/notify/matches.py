"""What the notifications read of a match: whether it is played by correspondence, who
plays it, and its result as one player sees it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.db.models import MatchSeat
from app.sessions.timecontrol import TimeControl
from engines import registry


def move_days(time_control: Mapping[str, Any] | None) -> int | None:
    """The days a correspondence match gives each move (``app.sessions.timecontrol``); None:
    not a correspondence match, so nothing is mailed about it."""
    return TimeControl.from_json(time_control, 0).days_per_move


def game_title(game: str) -> str:
    try:
        return str(registry.get(game).title)
    except (KeyError, ImportError, AttributeError):
        return game


def opponents(seats: Sequence[MatchSeat], account_id: int) -> list[str]:
    """The names at the other seats (bots' castle names included), in seat order."""
    return [seat.name for seat in seats if seat.account_id != account_id]


def result_for(
    result: Mapping[str, Any] | None, seats: Sequence[MatchSeat], account_id: int
) -> str:
    """``You won``, ``You lost``, ``Draw`` or ``You placed 2nd of 3`` (by the match's
    placings, ties sharing a place), with the reason the engine gave."""
    if not result:
        return "the match ended"
    mine = {seat.seat for seat in seats if seat.account_id == account_id}
    placings: list[list[int]] = [list(group) for group in result.get("placings", [])]
    reason = str(result.get("reason", "")).replace("_", " ")
    place = next((i for i, group in enumerate(placings) if mine & set(group)), None)
    if place is None:
        text = "the match ended"
    elif place == 0 and len(placings) == 1:
        text = "Draw"
    elif place == 0:
        text = "You won" if len(placings[0]) == 1 else "You shared the win"
    elif len(placings) == 2:
        text = "You lost"
    else:
        text = f"You placed {_ordinal(place + 1)} of {len(placings)}"
    return f"{text} ({reason})" if reason else text


def _ordinal(n: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n if n < 20 else n % 10, "th")
    return f"{n}{suffix}"
