"""Colours: terrains and seats that stay apart under colour-vision deficiency.

Every two terrains, and every two seat colours (the automaton's included), differ by a
CIEDE2000 ΔE of at least :data:`APART` with normal vision and under simulated protanopia,
deuteranopia and tritanopia (:mod:`dashboard.vision`; ``tests/dashboard/test_colours.py``
computes every pair). The seat colours are Okabe–Ito's, nudged where two of them met; each
terrain keeps its look (forest green, mountain grey-brown, grassland pale yellow-green,
tundra icy blue, desert sand, water blue, chasm near black) and carries a letter drawn in
:data:`TERRAIN_INK`, at a contrast of at least 4.5:1.

>>> player_color("red", 1)
'#D55E00'
>>> player_color("#123456", 0)
'#123456'
"""

from __future__ import annotations

import re

APART = 10.0
"""The least CIEDE2000 difference between two terrains, or two seat colours, in any vision."""
TERRAIN_COLORS = {
    "forest": "#529B5C",
    "mountain": "#A79D95",
    "grassland": "#EBF296",
    "tundra": "#CFE8F5",
    "desert": "#E9A93F",
    "water": "#2D6FA8",
    "chasm": "#333333",
}
TERRAIN_LETTERS = {
    "forest": "F",
    "mountain": "M",
    "grassland": "G",
    "tundra": "T",
    "desert": "D",
    "water": "W",
    "chasm": "X",
}
"""The letter on every hex of a terrain (the map's "Terrain letters")."""
TERRAIN_INK = {t: "#FFFFFF" if t in ("water", "chasm") else "#1A1A1A" for t in TERRAIN_COLORS}
"""The colour of a terrain's letter (and of text drawn on it)."""
SEAT_COLORS = {  # for pieces and lines
    "blue": "#1474D4",
    "red": "#D55E00",
    "yellow": "#FFDF1D",
    "green": "#009E73",
    "purple": "#AA4498",
    "orange": "#E69F00",
    "black": "#222222",
    "white": "#F4F4F4",
    "pink": "#C677A8",
    "grey": "#74787C",
    "gray": "#74787C",
    "brown": "#7A4736",
    "cyan": "#55B4E9",
}
FALLBACK = tuple(SEAT_COLORS[c] for c in ("blue", "red", "yellow", "green", "purple"))
"""The colours of seats whose colour is neither a name above nor ``#rrggbb``, by seat."""
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
