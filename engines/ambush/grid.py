"""The battlefield grid: cells, 4-adjacency, the fixed spiral order and where a card may go."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Collection, Mapping
from typing import Any, cast

Cell = tuple[int, int]

DECK_CELL: Cell = (0, 0)
# 52 cards in a line from the deck reach ring 53; ring 60 covers every reachable cell.
_RINGS = 60
COORD_LIMIT = 1000


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
# The spiral's cells by index. The free-cell frontier is kept as spiral indices, which sort and
# compare as plain ints, with no key function called per cell.
SPIRAL_CELLS: list[Cell] = list(SPIRAL)


def neighbours(cell: Cell) -> tuple[Cell, Cell, Cell, Cell]:
    x, y = cell
    return ((x + 1, y), (x, y + 1), (x - 1, y), (x, y - 1))


def _near_table() -> list[tuple[int, ...]]:
    """Each spiral index's four neighbours as spiral indices, for the cells whose neighbours
    are all in the table: every ring but the outermost (the spiral goes ring by ring)."""
    near: list[tuple[int, ...]] = []
    for cell in SPIRAL_CELLS:
        around = [SPIRAL.get(n) for n in neighbours(cell)]
        if None in around:
            break
        near.append(tuple(i for i in around if i is not None))
    return near


_NEAR = _near_table()
_INNER = len(_NEAR)  # spiral indices below this have their neighbours in ``_NEAR``
_spiral_get = SPIRAL.get


def _cell_frontier(grid: Mapping[Cell, Any], blocked: Collection[Cell]) -> set[Cell]:
    """The free cells as cells, for a grid with a card beyond the spiral table (only a state
    edited by hand has one: 52 cards reach ring 53)."""
    found: set[Cell] = set().union(*map(neighbours, grid or (DECK_CELL,)))
    found.difference_update(grid)
    found.discard(DECK_CELL)
    found.difference_update(blocked)
    return found


def full_frontier(grid: Mapping[Cell, Any]) -> set[int] | None:
    """The empty cells next to a card down (or next to the deck while the battlefield is
    empty), as spiral indices; None when a card lies beyond the spiral table."""
    if not grid:
        return set(_NEAR[0])  # the deck's four neighbours
    looked_up: set[int | None] = set(map(_spiral_get, grid))
    if None in looked_up:
        return None
    down = cast(set[int], looked_up)
    if max(down) >= _INNER:
        return None
    # One C-level union over the neighbour tuples (no Python loop per card).
    found: set[int] = set().union(*map(_NEAR.__getitem__, down))
    found.difference_update(down)
    found.discard(0)
    return found


def grow_frontier(grid: Mapping[Cell, Any], frontier: list[int], cell: Cell) -> bool:
    """Carry ``frontier`` (the free cells of ``grid`` before the card now at ``cell`` went
    down, as sorted spiral indices) over that card, in place: its cell is no longer free, its
    empty neighbours are. A turn puts down one or two cards, so this beats a fresh frontier
    (a union over every card) and a sort twice a turn. Returns False, leaving ``frontier``
    as it was, when the card cannot be carried over: the first card (the deck's neighbours
    stop counting) or one beyond the spiral table. ``full_frontier`` then starts afresh."""
    index = _spiral_get(cell)
    if index is None or index >= _INNER or len(grid) == 1:
        return False
    at = bisect_left(frontier, index)
    if at < len(frontier) and frontier[at] == index:
        del frontier[at]
    for near in _NEAR[index]:
        if near and SPIRAL_CELLS[near] not in grid:  # index 0 is the deck
            at = bisect_left(frontier, near)
            if at == len(frontier) or frontier[at] != near:
                frontier.insert(at, near)
    return True


def free_cells(grid: Mapping[Cell, Any], blocked: Collection[Cell] = ()) -> list[Cell]:
    """Cells where a card may go now, in spiral order.

    A card goes on an empty cell 4-adjacent to a card already down, or next to the deck while
    the battlefield is empty. ``blocked`` cells (a played card's reserved cell) are not free
    but are not cards either, so nothing becomes adjacent through them. The engine's
    listings use the frontier carried in the state instead (``AmbushState.free_indices``).
    """
    found = full_frontier(grid)
    if found is None:
        return sorted(_cell_frontier(grid, blocked), key=spiral_key)
    if blocked:
        found.difference_update(map(_spiral_get, blocked))
    return list(map(SPIRAL_CELLS.__getitem__, sorted(found)))


def first_free_cell(grid: Mapping[Cell, Any], blocked: Collection[Cell] = ()) -> Cell:
    """``free_cells(grid, blocked)[0]`` without sorting the rest."""
    found = full_frontier(grid)
    if found is None:
        return min(_cell_frontier(grid, blocked), key=spiral_key)
    if blocked:
        found.difference_update(map(_spiral_get, blocked))
    return SPIRAL_CELLS[min(found)]


def is_free(grid: Mapping[Cell, Any], cell: Cell, blocked: Collection[Cell] = ()) -> bool:
    """Whether ``cell`` is empty (not the deck, not a card, not reserved)."""
    return cell != DECK_CELL and cell not in grid and cell not in blocked


def is_adjacent(grid: Mapping[Cell, Any], cell: Cell) -> bool:
    """Whether ``cell`` touches a card down (or the deck while the battlefield is empty)."""
    x, y = cell
    if not grid:
        return abs(x) + abs(y) == 1  # the deck's four neighbours
    return (x + 1, y) in grid or (x, y + 1) in grid or (x - 1, y) in grid or (x, y - 1) in grid


def parse_cell(value: Any) -> Cell | None:
    """``[x, y]`` (two plain ints) as a Cell, or None when malformed."""
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        return None
    x, y = value
    if type(x) is int and type(y) is int:  # the usual case, without the loop below
        return (
            (x, y)
            if -COORD_LIMIT <= x <= COORD_LIMIT and -COORD_LIMIT <= y <= COORD_LIMIT
            else None
        )
    for v in (x, y):
        if isinstance(v, bool) or not isinstance(v, int) or abs(v) > COORD_LIMIT:
            return None
    return (x, y)


def cell_json(cell: Cell) -> list[int]:
    return [cell[0], cell[1]]
