"""How colours look under colour-vision deficiency, how far apart they look, and how well text
reads on them: what the palette (:mod:`dashboard.palette`) is chosen and tested by.

- **Simulation**: Machado, Oliveira & Fernandes, "A Physiologically-based Model for
  Simulation of Color Vision Deficiency", IEEE TVCG 15(6), 2009, at full severity (1.0): one
  3×3 matrix per deficiency (the authors' published table), applied to *linear* RGB, the
  result clipped to the sRGB gamut. Protanopia and deuteranopia (no L or no M cones) are
  the common red–green dichromacies; tritanopia (no S cones) the rare blue–yellow one.
- **Distance**: CIEDE2000 (CIE 142-2001) in CIELAB under D65, as written out by Sharma, Wu
  & Dalal, "The CIEDE2000 Color-Difference Formula: Implementation Notes, Supplementary Test
  Data, and Mathematical Observations", Color Res. Appl. 30(1), 2005, with kL = kC = kH = 1.
  A ΔE00 of about 1 is just noticeable; 10 is plainly another colour.
- **Contrast**: WCAG 2.x's contrast ratio of relative luminances, (L1 + 0.05) / (L2 + 0.05);
  4.5:1 is the minimum for body text (success criterion 1.4.3).

The former forest and mountain, nearly one colour to a deuteranope:

>>> round(delta_e("#6DBE9C", "#A9A39B", "deuteranopia"), 1)
2.3
>>> round(contrast("#888888", "#FFFFFF"), 2)
3.54
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Matrix = tuple[tuple[float, float, float], ...]
RGB = tuple[float, float, float]

DEFICIENCIES: dict[str, Matrix] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
"""Machado et al. (2009), severity 1.0, on linear RGB."""
VISIONS = ("normal", *DEFICIENCIES)
"""Normal vision, then the simulated deficiencies."""
_XYZ = ((0.4124, 0.3576, 0.1805), (0.2126, 0.7152, 0.0722), (0.0193, 0.1192, 0.9505))
"""Linear sRGB to CIE XYZ (IEC 61966-2-1)."""
_WHITE = (0.95047, 1.0, 1.08883)
"""The D65 white point in XYZ."""


def linear_rgb(color: str) -> RGB:
    """``#rrggbb`` as linear RGB in [0, 1] (the sRGB transfer curve undone).

    >>> linear_rgb("#FF0000")
    (1.0, 0.0, 0.0)
    """
    channels = (int(color[i : i + 2], 16) / 255 for i in (1, 3, 5))
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return r, g, b


def _apply(matrix: Matrix, v: Sequence[float]) -> RGB:
    r, g, b = (sum(m * c for m, c in zip(row, v, strict=True)) for row in matrix)
    return r, g, b


def simulate(color: str, vision: str) -> RGB:
    """Linear RGB of ``color`` as seen with ``vision`` (one of :data:`VISIONS`)."""
    rgb = linear_rgb(color)
    if vision == "normal":
        return rgb
    r, g, b = (min(1.0, max(0.0, c)) for c in _apply(DEFICIENCIES[vision], rgb))
    return r, g, b


def lab(rgb: Sequence[float]) -> RGB:
    """CIELAB (D65) of a linear RGB colour.

    >>> [round(abs(c), 1) for c in lab(linear_rgb("#FFFFFF"))]
    [100.0, 0.0, 0.0]
    """

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = (f(c / w) for c, w in zip(_apply(_XYZ, rgb), _WHITE, strict=True))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def ciede2000(lab1: Sequence[float], lab2: Sequence[float]) -> float:
    """The CIEDE2000 difference of two CIELAB colours (Sharma et al. 2005, eqs. 1–25).

    Pairs 1 and 17 of Sharma et al.'s test data:

    >>> round(ciede2000((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485)), 4)
    2.0425
    >>> round(ciede2000((50.0, 2.5, 0.0), (73.0, 25.0, -18.0)), 4)
    27.1492
    """
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    c7 = ((math.hypot(a1, b1) + math.hypot(a2, b2)) / 2) ** 7
    g = 0.5 * (1 - math.sqrt(c7 / (c7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dlp, dcp = l2 - l1, c2p - c1p
    dhp = 0.0
    if c1p * c2p:
        dhp = h2p - h1p
        if dhp > 180:
            dhp -= 360
        elif dhp < -180:
            dhp += 360
    dhhp = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dhp / 2))
    lbar, cbar = (l1 + l2) / 2, (c1p + c2p) / 2
    hbar = h1p + h2p
    if c1p * c2p:
        if abs(h1p - h2p) <= 180:
            hbar /= 2
        else:
            hbar = (hbar + 360) / 2 if hbar < 360 else (hbar - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(hbar - 30))
        + 0.24 * math.cos(math.radians(2 * hbar))
        + 0.32 * math.cos(math.radians(3 * hbar + 6))
        - 0.20 * math.cos(math.radians(4 * hbar - 63))
    )
    sl = 1 + 0.015 * (lbar - 50) ** 2 / math.sqrt(20 + (lbar - 50) ** 2)
    sc, sh = 1 + 0.045 * cbar, 1 + 0.015 * cbar * t
    cbar7 = cbar**7
    rt = (
        -2
        * math.sqrt(cbar7 / (cbar7 + 25**7))
        * math.sin(math.radians(60 * math.exp(-(((hbar - 275) / 25) ** 2))))
    )
    dl, dc, dh = dlp / sl, dcp / sc, dhhp / sh
    return math.sqrt(dl**2 + dc**2 + dh**2 + rt * dc * dh)


def delta_e(one: str, other: str, vision: str = "normal") -> float:
    """How far apart two ``#rrggbb`` colours look with ``vision`` (CIEDE2000)."""
    return ciede2000(lab(simulate(one, vision)), lab(simulate(other, vision)))


def luminance(color: str) -> float:
    """WCAG relative luminance of ``#rrggbb``."""
    r, g, b = linear_rgb(color)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: str, other: str) -> float:
    """WCAG contrast ratio of two ``#rrggbb`` colours, from 1 to 21.

    >>> round(contrast("#000000", "#FFFFFF"), 1)
    21.0
    """
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def closest_pair(colors: dict[str, str]) -> tuple[float, str, str, str]:
    """The smallest difference between any two of ``colors`` under any of :data:`VISIONS`:
    ``(ΔE00, vision, name, name)``."""
    names = list(colors)
    return min(
        (delta_e(colors[a], colors[b], v), v, a, b)
        for v in VISIONS
        for i, a in enumerate(names)
        for b in names[i + 1 :]
    )
