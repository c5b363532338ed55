"""The free-cell frontier and the spiral order of the cards, carried from card to card, equal
the ones computed from scratch."""

from __future__ import annotations

from typing import Any

from engines.ambush.bots import HeuristicBot, RandomBot
from engines.ambush.grid import (
    SPIRAL_CELLS,
    Cell,
    first_free_cell,
    free_cells,
    full_frontier,
    grow_frontier,
    spiral_index,
)
from engines.ambush.state import AmbushState
from engines.base import Bot, Rng
from engines.playout import play
from tests.engines.ambush.ambush_support import ENGINE, new_game


def test_carried_frontier_and_order_match_fresh_ones_as_cards_come_and_go() -> None:
    for seed in range(30):
        rng = Rng(seed)
        state: AmbushState = new_game([[], []])
        for _ in range(120):
            roll = rng.randbelow(10)
            grid = state.grid
            if roll < 6 or not grid:  # a card goes down on a free cell (a turn, an archer)
                cells = free_cells(grid)
                state.put_card(cells[rng.randbelow(len(cells))], "knight")
            elif roll < 8:  # a grab takes one away
                cells = sorted(grid)
                state.take_card(cells[rng.randbelow(len(cells))])
            elif roll < 9:  # the battlefield goes back into the deck
                state.clear_grid()
            fresh = full_frontier(grid)
            assert fresh is not None and state.free_indices() == sorted(fresh)
            assert free_cells(grid) == [SPIRAL_CELLS[i] for i in sorted(fresh)]
            assert state.cells_in_order() == sorted(grid, key=spiral_index)
            blocked = [] if roll % 2 else [free_cells(grid)[0]]
            assert first_free_cell(grid, blocked) == free_cells(grid, blocked)[0]


def test_frontier_is_not_carried_over_the_first_card_or_beyond_the_table() -> None:
    grid: dict[Cell, str] = {(1, 0): "knight"}
    assert not grow_frontier(grid, [1, 2, 3, 4], (1, 0))  # the deck's neighbours stop counting
    far: dict[Cell, str] = {(1, 0): "knight", (500, 0): "knight"}
    assert not grow_frontier(far, [2], (500, 0))
    assert full_frontier(far) is None
    cells = free_cells(far)
    assert len(cells) == 7 and set(cells[-4:]) == {(501, 0), (499, 0), (500, 1), (500, -1)}
    assert first_free_cell(far) == cells[0]


def test_frontier_and_order_carried_through_bot_games_match_fresh_ones() -> None:
    for seats in (2, 3, 4):
        kinds = (HeuristicBot, RandomBot)
        bots: list[Bot] = [kinds[(seats + s) % 2](s, 70 + s) for s in range(seats)]
        checked: list[int] = []

        def check(state: Any, events: Any, checked: list[int] = checked) -> None:
            fresh = full_frontier(state.grid)
            assert fresh is not None and state.free_indices() == sorted(fresh)
            assert state.cells_in_order() == sorted(state.grid, key=spiral_index)
            checked.append(len(state.grid))

        record = play(ENGINE, bots, seed=seats, on_change=check)
        assert record.outcome is not None and len(checked) > 50
