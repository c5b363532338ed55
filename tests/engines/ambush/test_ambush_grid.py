"""The free-cell frontier carried between listings equals the one computed from scratch."""

from __future__ import annotations

from typing import Any

from engines.ambush.grid import Cell, first_free_cell, free_cells
from engines.base import Rng


def test_carried_frontier_matches_a_fresh_one_as_cards_come_and_go() -> None:
    for seed in range(30):
        rng = Rng(seed)
        grid: dict[Cell, str] = {}
        memo: dict[str, Any] = {}
        for _ in range(120):
            roll = rng.randbelow(10)
            if roll < 6 or not grid:  # a card goes down on a free cell (a turn, an archer)
                cells = free_cells(grid)
                grid[cells[rng.randbelow(len(cells))]] = "knight"
            elif roll < 8:  # a grab takes one away
                cells = sorted(grid)
                del grid[cells[rng.randbelow(len(cells))]]
            elif roll < 9:  # the battlefield goes back into the deck
                grid.clear()
            blocked = [] if not grid or roll % 2 else [free_cells(grid)[0]]
            assert free_cells(grid, blocked, memo) == free_cells(grid, blocked)
            assert first_free_cell(grid, blocked, memo) == first_free_cell(grid, blocked)
