"""The palette under colour-vision deficiency (:mod:`dashboard.vision`): every two terrains and
every two seat colours apart by CIEDE2000 ΔE ≥ 10 with normal vision and simulated
protanopia, deuteranopia and tritanopia (Machado et al. 2009, full severity); every terrain's
letter readable on it (WCAG contrast ≥ 4.5:1); the map's letters trace; the formula against
Sharma et al.'s published test data; the region-control hover of a tie broken by alphas."""

from __future__ import annotations

import json
from itertools import combinations

import pytest

from dashboard.boards.wolves import LAND_ORDER, control_figure, drawing
from dashboard.palette import (
    APART,
    AUTOMATON_COLOR,
    SEAT_COLORS,
    TERRAIN_COLORS,
    TERRAIN_INK,
    TERRAIN_LETTERS,
)
from dashboard.vision import DEFICIENCIES, VISIONS, ciede2000, closest_pair, contrast, delta_e
from domain.wolves.records import read_record
from domain.wolves.replay import replay
from domain.wolves.ruleset import WOLVES
from projections.timeline import timeline
from tests.dashboard.conftest import FIXTURES

SEATS = {**{n: c for n, c in SEAT_COLORS.items() if n != "gray"}, "automaton": AUTOMATON_COLOR}
"""Every seat colour the board draws (``gray`` is ``grey``), and the automaton's."""


@pytest.mark.parametrize("vision", VISIONS)
@pytest.mark.parametrize(("one", "other"), list(combinations(LAND_ORDER, 2)))
def test_every_two_terrains_stay_apart(one: str, other: str, vision: str) -> None:
    found = delta_e(TERRAIN_COLORS[one], TERRAIN_COLORS[other], vision)
    assert found >= APART, f"{one} and {other}: ΔE00 {found:.1f} under {vision}"


@pytest.mark.parametrize("vision", VISIONS)
@pytest.mark.parametrize(("one", "other"), list(combinations(SEATS, 2)))
def test_every_two_seat_colours_stay_apart(one: str, other: str, vision: str) -> None:
    found = delta_e(SEATS[one], SEATS[other], vision)
    assert found >= APART, f"{one} and {other}: ΔE00 {found:.1f} under {vision}"


def test_the_former_colours_are_caught() -> None:
    """The colours the palette replaced: forest and mountain, seat blue and purple."""
    former = {"forest": "#6DBE9C", "mountain": "#A9A39B"}
    assert closest_pair(former)[:2] == (pytest.approx(2.30, abs=0.01), "deuteranopia")
    assert delta_e("#0072B2", "#AA4499", "protanopia") < APART


def test_the_terrains_keep_their_look() -> None:
    """Forest green, water blue, tundra light and bluish, chasm the darkest."""

    def rgb(color: str) -> tuple[int, ...]:
        return tuple(int(color[i : i + 2], 16) for i in (1, 3, 5))

    r, g, b = rgb(TERRAIN_COLORS["forest"])
    assert g > r and g > b
    r, g, b = rgb(TERRAIN_COLORS["water"])
    assert b > g > r
    r, g, b = rgb(TERRAIN_COLORS["tundra"])
    assert b >= g > r and r > 180
    assert min(TERRAIN_COLORS, key=lambda t: sum(rgb(TERRAIN_COLORS[t]))) == "chasm"


@pytest.mark.parametrize("terrain", LAND_ORDER)
def test_each_terrain_letter_reads_on_its_terrain(terrain: str) -> None:
    assert contrast(TERRAIN_INK[terrain], TERRAIN_COLORS[terrain]) >= 4.5
    assert len(TERRAIN_LETTERS[terrain]) == 1
    assert len(set(TERRAIN_LETTERS.values())) == len(TERRAIN_LETTERS)


def test_the_map_has_a_letter_on_every_hex() -> None:
    state = replay(read_record((FIXTURES / "3p-00-heuristic.json").read_bytes())).state_at(0)
    gmap = state.table.map
    shown = drawing(gmap)
    assert len(shown["letters"]) == len(shown["terrain"]) == len(gmap.terrain)
    drawn = {shown["letter"][t] for t in shown["terrain"]}
    assert drawn == {TERRAIN_LETTERS[t] for t in gmap.terrain.values()} >= {"F", "M", "G", "T", "D"}
    assert shown["letter"] == TERRAIN_LETTERS and shown["ink"] == TERRAIN_INK
    json.dumps(shown)  # what the page is sent
    at = {(round(x, 2), round(y, 2)) for x, y in shown["letters"]}
    for x, y, _ in shown["labels"]:  # a region's label, and its W
        assert (round(x - 0.92, 2), round(y, 2)) in at  # beside it, not under it


def test_white_stays_white_and_grey_stays_grey() -> None:
    """Machado's matrices keep the achromatic axis (each row sums to 1)."""
    for matrix in DEFICIENCIES.values():
        assert [round(sum(row), 4) for row in matrix] == [1.0, 1.0, 1.0]
    for vision in VISIONS:
        assert delta_e("#FFFFFF", "#FFFFFF", vision) == 0
        assert delta_e("#777777", "#777777", vision) == 0
        assert delta_e("#808080", "#7F7F7F", vision) < 1


@pytest.mark.parametrize(
    ("lab1", "lab2", "expected"),
    [  # Sharma, Wu & Dalal (2005), table 1: pairs 1, 7, 13, 19, 25, 31, 34
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.4900, -0.0010), (50.0, -2.4900, 0.0011), 7.2195),
        ((50.0, 2.5, 0.0), (50.0, 0.0, -2.5), 4.3065),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
        ((90.8027, -2.0831, 1.4410), (91.1528, -1.6435, 0.0447), 1.4441),
        ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
    ],
)
def test_ciede2000_against_the_published_data(
    lab1: tuple[float, float, float], lab2: tuple[float, float, float], expected: float
) -> None:
    assert round(ciede2000(lab1, lab2), 4) == expected
    assert round(ciede2000(lab2, lab1), 4) == expected


def test_the_control_hover_says_why_a_tied_control_leads() -> None:
    """A leader by 0 control is ahead on alphas; a tie on both has no leader (W-8)."""
    played = replay(read_record((FIXTURES / "3p-00-heuristic.json").read_bytes()))
    rows = timeline(WOLVES, played.initial, played.steps)
    shown = control_figure(rows, ["Ana", "Bo", "Cy"], ["#111111", "#222222", "#333333", "#444"])
    texts = [t for row in shown["data"][0]["text"] for t in row]
    cells = [c for row in rows for c in row["control"]]
    by_alphas = [c for c in cells if c["leader"] is not None and c["margin"] == 0]
    assert by_alphas, "the fixture has a control tie broken by alphas"
    assert not any("leads by 0" in t for t in texts)
    assert sum("leads on alphas, tied on control (W-8)" in t for t in texts) == len(by_alphas)
