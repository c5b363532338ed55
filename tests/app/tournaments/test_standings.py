"""Standings: the tournament's 1500-point ledger with Buchholz, Sonneborn-Berger, head-to-head."""

from __future__ import annotations

from app.tournaments.standings import GameResult, compute, ledger, ranking


def duel(round_no: int, a: int, b: int, change: int) -> GameResult:
    """``a`` beats ``b`` and takes ``change`` points (0: a draw)."""
    placings = ((a, b),) if change == 0 else ((a,), (b,))
    return GameResult(round_no, (a, b), placings, {a: change, b: -change})


def test_everyone_starts_at_1500_and_ledger_changes_add_up() -> None:
    results = [duel(1, 1, 2, 90), duel(1, 3, 4, 20), duel(2, 1, 3, 100), duel(2, 2, 4, 0)]
    assert ledger([1, 2, 3, 4], []) == {1: 1500, 2: 1500, 3: 1500, 4: 1500}
    assert ledger([1, 2, 3, 4], results) == {1: 1690, 2: 1410, 3: 1420, 4: 1480}
    table = compute([1, 2, 3, 4], results)
    assert ranking(table) == [1, 4, 3, 2]
    assert [s.rank for s in table] == [1, 2, 3, 4]
    assert sum(s.points - 1500 for s in table) == 0
    first = table[0]
    assert (first.played, first.wins, first.draws, first.losses) == (2, 2, 0, 0)
    fourth = next(s for s in table if s.player == 4)
    assert (fourth.wins, fourth.draws, fourth.losses) == (0, 1, 1)


def test_buchholz_breaks_a_tie_on_points() -> None:
    """1 and 3 both end on 1550; 1's opponents (2 at -20, 3 at +50) netted more than 3's
    (4 at -80, 1 at +50)."""
    results = [duel(1, 1, 2, 50), duel(1, 3, 4, 50), duel(2, 1, 3, 0), duel(2, 2, 4, 30)]
    table = compute([3, 1, 2, 4], results)
    by_player = {s.player: s for s in table}
    assert by_player[1].points == by_player[3].points == 1550
    assert by_player[1].buchholz == 30 and by_player[3].buchholz == -30
    assert ranking(table)[:2] == [1, 3]


def test_sonneborn_berger_breaks_a_tie_on_points_and_buchholz() -> None:
    """2 and 3 both end on 1510 with Buchholz -20; 3 drew with the leader (+20 net, half of it
    counts) and beat 4 (-40): -30; 2 beat 4 (-40) and lost to 1: -40."""
    results = [duel(1, 1, 2, 20), duel(1, 3, 4, 10), duel(2, 1, 3, 0), duel(2, 2, 4, 30)]
    table = compute([1, 2, 3, 4], results)
    assert ranking(table) == [1, 3, 2, 4]
    two, three = table[2], table[1]
    assert (two.points, two.buchholz) == (three.points, three.buchholz)
    assert (three.sonneborn_berger, two.sonneborn_berger) == (-30, -40)


def test_head_to_head_breaks_what_buchholz_and_sonneborn_berger_leave_level() -> None:
    results = [
        duel(1, 1, 2, 20),
        duel(1, 3, 4, 20),
        duel(2, 1, 3, 10),
        duel(2, 2, 4, 10),
        duel(3, 1, 4, 20),
        duel(3, 2, 3, 10),
    ]
    table = compute([1, 3, 2, 4], results)
    two, three = table[1], table[2]
    assert (two.player, three.player) == (2, 3)
    assert (two.points, two.buchholz, two.sonneborn_berger) == (
        three.points,
        three.buchholz,
        three.sonneborn_berger,
    )
    assert (two.head_to_head, three.head_to_head) == (1, 0)
    assert (two.rank, three.rank) == (2, 3)


def test_players_level_on_everything_share_a_rank_in_seed_order() -> None:
    table = compute([7, 5], [duel(1, 5, 7, 0)])
    assert [(s.player, s.rank) for s in table] == [(7, 1), (5, 1)]
    assert table[0].draws == 1


def test_tables_of_four_average_opponents_and_score_placings_pairwise() -> None:
    result = GameResult(1, (1, 2, 3, 4), ((1,), (2, 3), (4,)), {1: 90, 2: 0, 3: 0, 4: -90})
    table = {s.player: s for s in compute([1, 2, 3, 4], [result])}
    assert table[1].buchholz == -30  # (0 + 0 - 90) / 3
    assert table[1].sonneborn_berger == -30  # beat all three
    # 2: lost to 1 (0 x 90), level with 3 (1/2 x 0), beat 4 (1 x -90): -90 / 3.
    assert table[2].sonneborn_berger == table[3].sonneborn_berger == -30
    # 2 and 3 are level on everything else; their shared placing is half a point each.
    assert table[2].head_to_head == table[3].head_to_head == 0.5
    assert table[2].rank == table[3].rank == 2
    assert table[1].wins == 1 and table[2].losses == 1 and table[4].losses == 1


def test_byes_and_withdrawals_are_shown_and_score_nothing() -> None:
    table = compute([1, 2, 3], [duel(1, 1, 2, 40)], byes={3: 1}, withdrawn=[2])
    by_player = {s.player: s for s in table}
    assert by_player[3].points == 1500 and by_player[3].byes == 1 and by_player[3].played == 0
    assert by_player[2].withdrawn and not by_player[1].withdrawn
    assert by_player[2].to_json()["withdrawn"] is True
