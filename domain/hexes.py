"""Hex geometry (W-1): axial coordinates ``(x, y)`` with six neighbours.

>>> distance((0, 0), (2, 1))
2
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping

Hex = tuple[int, int]

DIRECTIONS: tuple[Hex, ...] = ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1))


def neighbours(h: Hex) -> tuple[Hex, ...]:
    """The six hexes around ``h``, in a fixed order."""
    x, y = h
    return tuple((x + dx, y + dy) for dx, dy in DIRECTIONS)


def fmt(h: Hex) -> str:
    """A hex as written in records and messages: ``[x, y]``.

    >>> fmt((12, 6))
    '[12, 6]'
    """
    return f"[{h[0]}, {h[1]}]"


def distance(a: Hex, b: Hex) -> int:
    """Straight distance in steps, ignoring terrain (W-1)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    return (abs(dx) + abs(dy) + abs(dx - dy)) // 2


def step_distances(
    start: Hex, graph: Mapping[Hex, Iterable[Hex]], limit: int | None = None
) -> dict[Hex, int]:
    """Fewest steps from ``start`` to every hex reachable in ``graph`` (hex → passable neighbours).

    ``start`` itself is always included at distance 0; ``limit`` bounds the search.
    """
    seen = {start: 0}
    frontier = [start]
    steps = 0
    while frontier and (limit is None or steps < limit):
        steps += 1
        nxt = []
        for here in frontier:
            for n in graph.get(here, ()):
                if n not in seen:
                    seen[n] = steps
                    nxt.append(n)
        frontier = nxt
    return seen


def steps_within(
    start: Hex, goal: Hex, graph: Mapping[Hex, Iterable[Hex]], limit: int
) -> int | None:
    """Fewest steps from ``start`` to ``goal`` in ``graph`` if at most ``limit``, else None.

    The search skips hexes whose straight distance to ``goal`` is already too far, so it
    looks at the few hexes between the two rather than everything within ``limit``.

    >>> line = {(0, 0): [(1, 0)], (1, 0): [(0, 0), (2, 0)], (2, 0): [(1, 0)]}
    >>> steps_within((0, 0), (2, 0), line, 2), steps_within((0, 0), (2, 0), line, 1)
    (2, None)
    """
    if start == goal:
        return 0
    gx, gy = goal
    seen = {start}
    frontier = [start]
    for steps in range(1, limit):
        nxt = []
        for here in frontier:
            for n in graph.get(here, ()):
                if n == goal:
                    return steps
                if n not in seen:
                    dx, dy = gx - n[0], gy - n[1]
                    if steps + (abs(dx) + abs(dy) + abs(dx - dy)) // 2 <= limit:
                        seen.add(n)
                        nxt.append(n)
        frontier = nxt
    if limit > 0 and any(goal in graph.get(here, ()) for here in frontier):
        return limit
    return None


def shortest_path(start: Hex, goal: Hex, passable: Callable[[Hex], bool]) -> list[Hex] | None:
    """One shortest path from ``start`` to ``goal`` (both included), or None."""
    came: dict[Hex, Hex | None] = {start: None}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here == goal:
            path = [here]
            while (prev := came[path[-1]]) is not None:
                path.append(prev)
            return path[::-1]
        for nxt in neighbours(here):
            if nxt not in came and passable(nxt):
                came[nxt] = here
                queue.append(nxt)
    return None


def is_path(hexes: Iterable[Hex]) -> bool:
    """True when each hex is a neighbour of the one before it."""
    seq = list(hexes)
    return all(distance(a, b) == 1 for a, b in zip(seq, seq[1:], strict=False))
