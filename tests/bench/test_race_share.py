"""Races a person can win: a seat grabbing like a typical human gets about its fair share of
the cards against normal bots, more against easy ones and less against hard ones, at 2, 3
and 4 seats (``bench/race_share.py`` small: seeded races on the server's own race code)."""

from __future__ import annotations

import pytest

from bench.race_share import measure

RACES = 60  # per level and table size: about 750 grabs each


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_human_paced_seat_gets_its_fair_share_against_normal_bots(seats: int) -> None:
    levels = ("easy", "normal", "hard")
    easy, normal, hard = (measure(seats, level, RACES).ratio for level in levels)
    figures = f"{seats} seats, share / fair: easy {easy:.2f}, normal {normal:.2f}, hard {hard:.2f}"
    assert 0.85 <= normal <= 1.2, figures
    assert easy >= normal + 0.1, figures
    assert hard <= min(0.98, normal - 0.08), figures
