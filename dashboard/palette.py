"""Colours: a colour-blind-safe terrain palette (Okabe–Ito hues, lightened) and seat colours.

>>> player_color("red", 1)
'#D55E00'
>>> player_color("#123456", 0)
'#123456'
"""

from __future__ import annotations

import re

TERRAIN_COLORS = {
    "forest": "#6DBE9C",  # bluish green
    "mountain": "#A9A39B",  # warm grey
    "grassland": "#EDE27A",  # yellow
    "tundra": "#A8D5F0",  # sky blue
    "desert": "#EDB95E",  # orange
    "water": "#2D6FA8",
    "chasm": "#3A3A3A",
}
SEAT_COLORS = {  # Okabe–Ito, saturated, for pieces and lines
    "blue": "#0072B2",
    "red": "#D55E00",
    "yellow": "#F5D300",
    "green": "#009E73",
    "purple": "#AA4499",
    "orange": "#E69F00",
    "black": "#222222",
    "white": "#F4F4F4",
    "pink": "#CC79A7",
    "grey": "#7F7F7F",
    "gray": "#7F7F7F",
    "brown": "#8C564B",
    "cyan": "#56B4E9",
}
FALLBACK = ("#0072B2", "#D55E00", "#F5D300", "#009E73", "#AA4499")
AUTOMATON_COLOR = "#555555"
EMPTY = "#F2F0EA"
TIED = "#C9B99A"  # warm khaki: apart from the automaton's cool greys


def player_color(color: str, seat: int) -> str:
    """A display colour for a seat's colour name or ``#rrggbb``."""
    if re.fullmatch(r"#[0-9a-fA-F]{6}", color):
        return color
    return SEAT_COLORS.get(color.strip().lower(), FALLBACK[seat % len(FALLBACK)])


def tint(color: str, share: float) -> str:
    """``color`` mixed with white: ``share`` 1 is the colour itself, 0 is white.

    >>> tint("#000000", 0.5)
    '#808080'
    """
    rgb = [int(color[i : i + 2], 16) for i in (1, 3, 5)]
    mixed = [round(255 - (255 - c) * share) for c in rgb]
    return "#" + "".join(f"{c:02X}" for c in mixed)
