"""W-1 hex geometry, W-2 tiles and W-3 layouts."""

from __future__ import annotations

from collections import Counter

import pytest

from domain.hexes import distance, is_path, neighbours, shortest_path, step_distances, steps_within
from domain.wolves import components as box
from domain.wolves import generate_setup
from domain.wolves.maps import build_map, tile_hexes
from domain.wolves.setup import RegionTile, Setup


def test_w1_neighbours_in_the_contract_order() -> None:
    assert neighbours((4, 7)) == ((4, 6), (5, 7), (5, 8), (4, 8), (3, 7), (3, 6))


@pytest.mark.parametrize(
    ("a", "b", "d"),
    [
        ((0, 0), (0, 0), 0),
        ((0, 0), (1, 1), 1),
        ((0, 0), (1, -1), 2),
        ((0, 0), (2, 1), 2),
        ((0, 0), (-3, 2), 5),
        ((2, 5), (5, 2), 6),
        ((1, 1), (4, 4), 3),
    ],
)
def test_w1_distance_formula(a: tuple[int, int], b: tuple[int, int], d: int) -> None:
    assert distance(a, b) == distance(b, a) == d


def test_w1_every_neighbour_is_at_distance_one() -> None:
    h = (3, -2)
    assert {n for n in neighbours(h)} == {
        (x, y) for x in range(-1, 8) for y in range(-6, 3) if distance(h, (x, y)) == 1
    }


def test_w1_shortest_paths_go_around_impassable_hexes() -> None:
    """Water and chasm block movement: the way round a chasm wall is longer than the line."""
    gmap = build_map(generate_setup(3, seed=1))
    start, goal = (6, 7), (6, 9)  # either side of the start tile's chasm
    assert gmap.terrain[(6, 8)] == box.CHASM and distance(start, goal) == 2
    path = shortest_path(start, goal, gmap.is_land)
    assert path is not None and path[0] == start and path[-1] == goal and is_path(path)
    assert all(gmap.is_land(h) for h in path)
    assert len(path) - 1 == step_distances(start, gmap.land_neighbours)[goal] > 2
    assert step_distances(start, gmap.land_neighbours, 1) == {start: 0} | {
        n: 1 for n in neighbours(start) if gmap.is_land(n)
    }
    assert shortest_path(start, (0, 0), gmap.is_land) is None  # off the map


@pytest.mark.parametrize("players", [2, 5])
def test_w1_steps_within_agrees_with_the_full_search(players: int) -> None:
    gmap = build_map(generate_setup(players, seed=players))
    land = sorted(gmap.land_neighbours)
    for start in land[::7]:
        full = step_distances(start, gmap.land_neighbours)
        for goal in land[::3]:
            for limit in range(6):
                want = full[goal] if full.get(goal, limit + 1) <= limit else None
                assert steps_within(start, goal, gmap.land_neighbours, limit) == want


def test_w1_rotated_tile_mirrors_every_offset() -> None:
    upright = {h: t for h, t, _ in tile_hexes(4, (10, 10), rotated=False)}
    turned = {h: t for h, t, _ in tile_hexes(4, (10, 10), rotated=True)}
    for (x, y), terrain in upright.items():
        assert turned[(20 - x, 20 - y)] == terrain


def test_w2_region_tile_groups_and_markers() -> None:
    cells = {h: (t, m) for h, t, m in tile_hexes(1, (0, 0), rotated=False)}
    assert len(cells) == 16
    assert cells[(0, 0)] == ("water", None)
    assert cells[(-1, -2)] == ("grassland", "lone_wolf")  # G0
    assert cells[(-1, 1)] == ("desert", "lone_wolf")  # G4
    assert cells[(-2, -1)] == ("tundra", "prey")  # G2
    assert cells[(-3, 0)][0] == "forest"  # G1
    assert cells[(1, -1)][0] == "mountain"  # G3


@pytest.mark.parametrize("tile", range(1, 11))
def test_w2_each_tile_shows_its_five_group_terrains(tile: int) -> None:
    cells = {h: t for h, t, _ in tile_hexes(tile, (0, 0), rotated=False)}
    groups = box.TILE_TERRAINS[tile]
    for offset, group, _ in box.REGION_TILE:
        assert cells[offset] == ("water" if group == "water" else groups[int(group)])
    assert Counter(cells.values()) == Counter({t: 3 for t in box.TERRAINS} | {"water": 1})


def test_w2_lair_sites_are_the_six_neighbours_of_the_water() -> None:
    gmap = build_map(Setup(tiles=(RegionTile(7, (5, 5), True, ("full",)),)))
    assert gmap.lair_sites == frozenset(neighbours((5, 5)))
    assert gmap.water_of(1) == (5, 5)


def test_w2_start_tile_sides_and_chasm() -> None:
    gmap = build_map(generate_setup(3, seed=4))
    cx, cy = 8, 9
    side = {(x - cx, y - cy): s for (x, y), s in gmap.side.items()}
    assert side == {
        (-3, -2): "north",
        (-2, -2): "north",
        (-1, -2): "north",
        (0, -1): "north",
        (1, -1): "north",
        (-3, 0): "south",
        (-2, 0): "south",
        (-1, 1): "south",
        (0, 1): "south",
        (1, 1): "south",
    }
    chasm = {h for h, t in gmap.terrain.items() if t == "chasm"}
    assert chasm == {
        (cx + x, cy + y) for x, y in ((-3, -1), (-2, -1), (-1, -1), (-1, 0), (0, 0), (1, 0))
    }
    start = set(gmap.side) | chasm
    assert not start & set(gmap.region_of), "the start tile is not a region"
    assert (
        gmap.terrain[(cx - 3, cy - 2)] == "tundra" and gmap.terrain[(cx + 1, cy + 1)] == "mountain"
    )


@pytest.mark.parametrize(
    ("n", "size", "regions"), [(2, 80, 5), (3, 112, 6), (4, 144, 8), (5, 176, 10)]
)
def test_w3_layouts_map_sizes(n: int, size: int, regions: int) -> None:
    setup = generate_setup(n, seed=n)
    gmap = build_map(setup)
    assert len(gmap.terrain) == size, "tiles overlap or are missing"
    assert len(gmap.regions) == regions
    start, positions = box.LAYOUTS[n]
    assert setup.start == start
    assert [(t.center, t.rotated) for t in setup.tiles] == list(positions)
    assert all(len(gmap.region_hexes[r]) == 16 for r in gmap.regions)


def test_w3_layout_table() -> None:
    assert box.LAYOUTS[3] == (
        (8, 9),
        (
            ((11, 7), False),
            ((4, 4), True),
            ((1, 6), True),
            ((5, 11), False),
            ((8, 12), True),
            ((13, 11), False),
        ),
    )
    assert box.LAYOUTS[2][0] is None
    assert [c for c, _ in box.LAYOUTS[2][1]] == [(8, 9), (6, 5), (3, 7), (10, 13), (13, 11)]
    assert box.LAYOUTS[4][0] == (10, 10) and box.LAYOUTS[5][0] == (10, 13)
    assert [r for _, r in box.LAYOUTS[4][1]] == [
        False,
        True,
        False,
        True,
        False,
        True,
        False,
        False,
    ]
    assert [r for _, r in box.LAYOUTS[5][1]] == [
        False,
        True,
        True,
        False,
        True,
        False,
        False,
        True,
        False,
        False,
    ]


def test_w3_tile_numbers_are_distinct_and_random() -> None:
    dealt = {tuple(t.tile for t in generate_setup(4, seed=s).tiles) for s in range(6)}
    assert len(dealt) > 1
    assert all(len(set(d)) == 8 and set(d) <= set(range(1, 11)) for d in dealt)
