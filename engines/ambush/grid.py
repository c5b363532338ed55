"""The battlefield grid: cells, 4-adjacency, the fixed spiral order and where a card may go."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

Cell = tuple[int, int]

DECK_CELL: Cell = (0, 0)
# 52 cards in a line from the deck reach ring 53; ring 60 covers every reachable cell.
_RINGS = 60
_COORD_LIMIT = 1000


def _spiral(rings: int) -> dict[Cell, int]:
    """Cells ring by ring around the deck, each ring walked counter-clockwise from the east."""
    order: dict[Cell, int] = {DECK_CELL: 0}
    for r in range(1, rings + 1):
        walk: list[Cell] = [(r, y) for y in range(-r + 1, r + 1)]
        walk += [(x, r) for x in range(r - 1, -r - 1, -1)]
        walk += [(-r, y) for y in range(r - 1, -r - 1, -1)]
        walk += [(x, -r) for x in range(-r + 1, r + 1)]
        for cell in walk:
            order[cell] = len(order)
    return order


SPIRAL: dict[Cell, int] = _spiral(_RINGS)


def spiral_key(cell: Cell) -> int:
    """The cell's place in the fixed spiral order (cells beyond the rings sort last)."""
    key = SPIRAL.get(cell)
    return len(SPIRAL) + abs(cell[0]) + abs(cell[1]) if key is None else key


# Every card down or free cell lies within ring 54 (52 cards in a row from the deck), so the
# hot paths (views, listings) sort with a plain lookup.
spiral_index = SPIRAL.__getitem__


def neighbours(cell: Cell) -> tuple[Cell, Cell, Cell, Cell]:
    x, y = cell
    return ((x + 1, y), (x, y + 1), (x - 1, y), (x, y - 1))


def free_cells(grid: Mapping[Cell, Any], blocked: Iterable[Cell] = ()) -> list[Cell]:
    """Cells where a card may go now, in spiral order.

    A card goes on an empty cell 4-adjacent to a card already down, or next to the deck while
    the battlefield is empty. ``blocked`` cells (a played card's reserved cell) are not free
    but are not cards either, so nothing becomes adjacent through them.
    """
    taken = set(grid)
    taken.update(blocked)
    taken.add(DECK_CELL)
    anchors: Iterable[Cell] = grid if grid else (DECK_CELL,)
    found = {n for cell in anchors for n in neighbours(cell) if n not in taken}
    return sorted(found, key=spiral_index)


def is_free(grid: Mapping[Cell, Any], cell: Cell, blocked: Iterable[Cell] = ()) -> bool:
    """Whether ``cell`` is empty (not the deck, not a card, not reserved)."""
    return cell != DECK_CELL and cell not in grid and cell not in set(blocked)


def is_adjacent(grid: Mapping[Cell, Any], cell: Cell) -> bool:
    """Whether ``cell`` touches a card down (or the deck while the battlefield is empty)."""
    anchors = grid if grid else {DECK_CELL: None}
    return any(n in anchors for n in neighbours(cell))


def parse_cell(value: Any) -> Cell | None:
    """``[x, y]`` (two plain ints) as a Cell, or None when malformed."""
    if not isinstance(value, list | tuple) or len(value) != 2:
        return None
    x, y = value
    for v in (x, y):
        if isinstance(v, bool) or not isinstance(v, int) or abs(v) > _COORD_LIMIT:
            return None
    return (x, y)


def cell_json(cell: Cell) -> list[int]:
    return [cell[0], cell[1]]
