"""What a mail says of a match: correspondence or not, and the result as each player sees it."""

from __future__ import annotations

from app.db.models import MatchSeat
from app.notify.matches import move_days, opponents, result_for


def seats(*accounts: int | None) -> list[MatchSeat]:
    return [
        MatchSeat(seat=i, account_id=a, name=f"P{i}", bot=None if a else "random")
        for i, a in enumerate(accounts)
    ]


def test_only_days_per_move_makes_a_correspondence_match() -> None:
    assert move_days({"days_per_move": 3}) == 3
    assert move_days({"turn_ms": 60_000}) is None
    assert move_days({}) is None and move_days(None) is None


def test_each_player_reads_his_own_result() -> None:
    table = seats(7, 8, None)
    three = {"placings": [[1], [0], [2]], "seats": {}, "reason": "target_reached"}
    assert result_for(three, table, 8) == "You won (target reached)"
    assert result_for(three, table, 7) == "You placed 2nd of 3 (target reached)"
    two = {"placings": [[0], [1]], "seats": {}, "reason": "resigned"}
    assert result_for(two, seats(7, 8), 8) == "You lost (resigned)"
    tie = {"placings": [[0, 1]], "seats": {}, "reason": ""}
    assert result_for(tie, seats(7, 8), 7) == "Draw"
    shared = {"placings": [[0, 1], [2]], "seats": {}, "reason": ""}
    assert result_for(shared, table, 7) == "You shared the win"
    assert result_for(None, table, 7) == "the match ended"
    assert opponents(table, 7) == ["P1", "P2"]
