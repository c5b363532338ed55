"""The vote for who starts: most votes win, a tie is a seeded draw, bots vote for another."""

from __future__ import annotations

from app.lobby.service import run_name_vote


def member(seat: int, vote: int | None = None, bot: str | None = None) -> dict[str, object]:
    return {"seat": seat, "account_id": None if bot else seat + 1, "bot": bot, "vote": vote}


def test_name_vote_most_votes_starts() -> None:
    members = [member(0, 2), member(1, 2), member(2, 0)]
    result = run_name_vote(members, seed=7)
    assert result.first_seat == 2
    assert result.tally == {0: 1, 1: 0, 2: 2}


def test_name_vote_tie_is_a_seeded_draw() -> None:
    members = [member(0, 1), member(1, 0)]
    firsts = {run_name_vote(members, seed).first_seat for seed in range(40)}
    assert firsts == {0, 1}
    assert run_name_vote(members, 5).first_seat == run_name_vote(members, 5).first_seat


def test_bots_vote_for_someone_else() -> None:
    members = [member(0, bot="heuristic"), member(1, bot="random"), member(2, 0)]
    result = run_name_vote(members, seed=3)
    assert result.votes[0] != 0 and result.votes[1] != 1
    assert sum(result.tally.values()) == 3
