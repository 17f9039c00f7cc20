"""The table's grid (M-3): cells ``[x, y]`` (x to the right, y downwards), neighbours, and
the rectangle every card must fit in.

>>> fits([(0, 0), (1, 0), (2, 0), (3, 0)])
True
>>> fits([(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)])
False
>>> fits([(0, 0), (1, 0), (2, 0), (3, 0), (0, 1), (0, 2), (0, 3)])
False
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

Cell = tuple[int, int]
"""A cell of the table, ``(x, y)``; the first card of a round lies on ``(0, 0)``."""
FIRST: Final[Cell] = (0, 0)
"""Where the first card of a round goes (M-3)."""
LONG, SHORT = 4, 3
"""The rectangle the cards must fit: 4 columns × 3 rows, or 3 columns × 4 rows (M-3)."""
CELLS: Final = LONG * SHORT
"""Occupied cells that end a round (M-4)."""
REACH: Final = LONG - 1
"""Largest ``|x|`` or ``|y|`` of a cell: every card lies in a rectangle holding ``(0, 0)``."""
STEPS: Final[tuple[Cell, ...]] = ((1, 0), (-1, 0), (0, 1), (0, -1))


def fmt(cell: Cell) -> str:
    """A cell as records and messages write it: ``[x, y]``.

    >>> fmt((1, -2))
    '[1, -2]'
    """
    return f"[{cell[0]}, {cell[1]}]"


def neighbours(cell: Cell) -> tuple[Cell, ...]:
    """The four cells orthogonally next to ``cell``."""
    x, y = cell
    return tuple((x + dx, y + dy) for dx, dy in STEPS)


def bounds(cells: Iterable[Cell]) -> tuple[int, int, int, int]:
    """``(min x, min y, max x, max y)`` of some cells (at least one)."""
    xs, ys = zip(*cells, strict=True)
    return min(xs), min(ys), max(xs), max(ys)


def span_fits(width: int, height: int) -> bool:
    """Whether a ``width`` × ``height`` span fits 4 × 3 or 3 × 4 (M-3)."""
    return (width <= LONG and height <= SHORT) or (width <= SHORT and height <= LONG)


def fits(cells: Iterable[Cell]) -> bool:
    """Whether the cells fit a rectangle of 4 × 3 or 3 × 4 cells (M-3)."""
    x0, y0, x1, y1 = bounds(cells)
    return span_fits(x1 - x0 + 1, y1 - y0 + 1)


def fit_message(box: tuple[int, int, int, int]) -> str:
    """Why cells spanning ``box`` (:func:`bounds`) break M-3's rectangle.

    >>> fit_message((0, 0, 4, 1))
    'would spread the cards over 5 × 2 cells, beyond 4 × 3 or 3 × 4'
    """
    width, height = box[2] - box[0] + 1, box[3] - box[1] + 1
    return (
        f"would spread the cards over {width} × {height} cells, "
        f"beyond {LONG} × {SHORT} or {SHORT} × {LONG}"
    )


def corners(cells: Iterable[Cell]) -> frozenset[Cell]:
    """The corner cells of the smallest rectangle holding ``cells`` (M-5; fewer than four
    when it is one cell wide or high).

    >>> sorted(corners([(0, 0), (1, 0), (1, 1)]))
    [(0, 0), (0, 1), (1, 0), (1, 1)]
    """
    x0, y0, x1, y1 = bounds(cells)
    return frozenset(((x0, y0), (x1, y0), (x0, y1), (x1, y1)))


def connected(cells: Iterable[Cell]) -> bool:
    """Whether the cells form one orthogonally connected group (or none)."""
    left = set(cells)
    if not left:
        return True
    todo = [left.pop()]
    while todo:
        for n in neighbours(todo.pop()):
            if n in left:
                left.remove(n)
                todo.append(n)
    return not left
