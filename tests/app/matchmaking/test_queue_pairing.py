"""Quick play's pairing rules (``app.matchmaking.pairing``), as pure functions."""

from __future__ import annotations

from typing import Any

from app.matchmaking.pairing import (
    BASE_WINDOW,
    MAX_WINDOW,
    WIDEN_PER_S,
    Group,
    Ticket,
    meeting_key,
    pair,
    window,
)


def ticket(account: int, rating: float, at: float = 0.0, **fields: Any) -> Ticket:
    base: dict[str, Any] = {"game": "ambush", "seats": 2, "rated": True}
    base.update(fields)
    return Ticket(
        id=f"t{account}-{at}", account_id=account, name=f"P{account}", rating=rating,
        enqueued_at=at, **base,
    )  # fmt: skip


def accounts(groups: list[Group]) -> list[set[int]]:
    return [{t.account_id for t in group.tickets} for group in groups]


def test_the_window_starts_narrow_and_widens_with_waiting_up_to_a_cap() -> None:
    assert window(0) == BASE_WINDOW
    assert window(5) == BASE_WINDOW + 5 * WIDEN_PER_S
    assert window(10) > window(5) > window(0)
    assert window(10_000) == MAX_WINDOW


def test_players_of_like_strength_meet_first() -> None:
    tickets = [ticket(1, 1500), ticket(2, 1900), ticket(3, 1540), ticket(4, 1880)]
    assert sorted(accounts(pair(tickets, now=0)), key=min) == [{1, 3}, {2, 4}]


def test_a_gap_beyond_the_window_waits_until_the_window_has_widened() -> None:
    tickets = [ticket(1, 1500, at=0), ticket(2, 1800, at=0)]
    assert pair(tickets, now=1) == []  # 300 apart, the window is 120
    gap_fits_after = (300 - BASE_WINDOW) / WIDEN_PER_S
    assert accounts(pair(tickets, now=gap_fits_after + 0.1)) == [{1, 2}]


def test_the_longest_waiter_is_served_first_with_his_closest_partner() -> None:
    old = ticket(1, 1500, at=0)
    tickets = [old, ticket(2, 1700, at=9), ticket(3, 1640, at=9)]
    groups = pair(tickets, now=10)  # the old ticket's window is 300: both fit, 3 is closer
    assert accounts(groups) == [{1, 3}]


def test_a_player_is_never_paired_with_himself() -> None:
    tickets = [ticket(1, 1500, at=0), Ticket("again", 1, "P1", "ambush", 2, True, rating=1500)]
    assert pair(tickets, now=100) == []


def test_rated_and_casual_tickets_never_mix_nor_do_time_controls() -> None:
    rated = ticket(1, 1500)
    casual = ticket(2, 1500, rated=False)
    fast = ticket(3, 1500, time_control={"turn_ms": 5000})
    slow = ticket(4, 1500, time_control={"turn_ms": 60000})
    other_game = ticket(5, 1500, game="castles")
    other_size = ticket(6, 1500, seats=3)
    assert pair([rated, casual, fast, slow, other_game, other_size], now=1000) == []
    assert accounts(pair([rated, casual, ticket(7, 1500, rated=False)], now=0)) == [{2, 7}]


def test_players_who_just_met_wait_for_someone_else_if_anyone_is_there() -> None:
    recent = [meeting_key(1, 2)]
    tickets = [ticket(1, 1500), ticket(2, 1500), ticket(3, 1560)]
    assert accounts(pair(tickets, now=0, recent=recent)) == [{1, 3}]


def test_players_who_just_met_meet_again_when_nobody_else_is_waiting() -> None:
    tickets = [ticket(1, 1500), ticket(2, 1500)]
    assert accounts(pair(tickets, now=0, recent=[meeting_key(2, 1)])) == [{1, 2}]


def test_a_table_of_four_fills_by_rating_band() -> None:
    low = [ticket(n, 1200 + n, seats=4) for n in range(1, 5)]
    high = [ticket(n, 1800 + n, seats=4) for n in range(11, 15)]
    groups = pair(low + high, now=0)
    assert sorted(accounts(groups), key=min) == [{1, 2, 3, 4}, {11, 12, 13, 14}]
    assert all(group.gap <= BASE_WINDOW for group in groups)


def test_a_table_waits_while_its_band_is_too_wide() -> None:
    tickets = [ticket(1, 1400, seats=3), ticket(2, 1500, seats=3), ticket(3, 1600, seats=3)]
    assert pair(tickets, now=0) == []  # a spread of 200
    assert accounts(pair(tickets, now=6)) == [{1, 2, 3}]  # the window is 220


def test_bots_fill_the_seats_left_once_a_casual_ticket_has_waited_its_bots_after_s() -> None:
    alone = ticket(1, 1500, at=0, rated=False, seats=3, bots_after_s=5)
    assert pair([alone], now=4) == []
    (group,) = pair([alone], now=5)
    assert accounts([group]) == [{1}] and group.bots == 2


def test_bots_join_willing_humans_but_never_a_rated_ticket_or_an_unwilling_one() -> None:
    willing = ticket(1, 1500, at=0, rated=False, seats=4, bots_after_s=2)
    also = ticket(2, 1520, at=0, rated=False, seats=4, bots_after_s=30)
    unwilling = ticket(3, 1510, at=0, rated=False, seats=4)
    (group,) = pair([willing, also, unwilling], now=3)
    assert accounts([group]) == [{1, 2}] and group.bots == 2
    rated = ticket(4, 1500, at=0, seats=2, bots_after_s=1)
    assert pair([rated], now=100) == []


def test_tickets_round_trip_through_json() -> None:
    original = ticket(7, 1612.5, at=3.5, rated=False, bots_after_s=10.0)
    assert Ticket.from_json(original.to_json()) == original
