"""The map a setup describes: terrain per hex, regions, markers, start-tile sides (W-2, W-3)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from domain.hexes import Hex, neighbours, step_distances
from domain.wolves import components as box
from domain.wolves.components import Ground, Marker, Side, Terrain
from domain.wolves.setup import Setup


@dataclass(frozen=True, slots=True)
class GameMap:
    """Static geometry of one game. Regions are numbered from 1 in setup order."""

    terrain: dict[Hex, Ground]
    land: dict[Hex, Terrain]
    region_of: dict[Hex, int]
    side: dict[Hex, Side]
    markers: dict[Hex, Marker]
    regions: tuple[int, ...]
    region_hexes: dict[int, tuple[Hex, ...]]
    _reach: dict[tuple[Hex, int | None], dict[Hex, int]] = field(
        default_factory=dict, compare=False, repr=False
    )
    _derived: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def land_neighbours(self) -> dict[Hex, tuple[Hex, ...]]:
        """Each land hex's land neighbours (made on first use: a game folded for its
        timeline never needs them)."""
        found: dict[Hex, tuple[Hex, ...]] | None = self._derived.get("land_neighbours")
        if found is None:
            land = self.land
            found = self._derived["land_neighbours"] = {
                h: tuple(n for n in neighbours(h) if n in land) for h in land
            }
        return found

    @property
    def lair_sites(self) -> frozenset[Hex]:
        """The land hexes next to a water source, where lairs may stand (W-6.3; made on
        first use)."""
        found: frozenset[Hex] | None = self._derived.get("lair_sites")
        if found is None:
            waters = [h for h, t in self.terrain.items() if t == box.WATER]
            land = self.land
            found = self._derived["lair_sites"] = frozenset(
                n for w in waters for n in neighbours(w) if n in land
            )
        return found

    def steps_from(self, src: Hex, limit: int | None = None) -> dict[Hex, int]:
        """Fewest steps through land from ``src`` to each land hex within ``limit`` (cached).

        Pieces never block passing through (W-6.1), so this depends on the map alone.
        """
        key = (src, limit)
        found = self._reach.get(key)
        if found is None:
            found = self._reach[key] = step_distances(src, self.land_neighbours, limit)
        return found

    def is_land(self, h: Hex) -> bool:
        """True for a forest, mountain, grassland, tundra or desert hex on the map."""
        return h in self.land

    def water_of(self, region: int) -> Hex | None:
        """The region's (first) water source."""
        return next((h for h in self.region_hexes[region] if self.terrain[h] == box.WATER), None)


@lru_cache(maxsize=4096)
def tile_hexes(
    tile: int, centre: Hex, rotated: bool
) -> tuple[tuple[Hex, Ground, Marker | None], ...]:
    """The 16 hexes of a region tile as (hex, terrain, marker) (W-1, W-2; cached: the
    layouts place the same tiles at the same few centres)."""
    terrains = box.TILE_TERRAINS[tile]
    out: list[tuple[Hex, Ground, Marker | None]] = []
    for (ox, oy), group, marker in box.REGION_TILE:
        sign = -1 if rotated else 1
        h = (centre[0] + sign * ox, centre[1] + sign * oy)
        out.append((h, terrains[group] if isinstance(group, int) else group, marker))
    return tuple(out)


@lru_cache(maxsize=512)
def build_map(setup: Setup) -> GameMap:
    """Lay out the map of a setup, from tiles or from its custom map (cached per setup)."""
    terrain: dict[Hex, Ground] = {}
    region_of: dict[Hex, int] = {}
    side: dict[Hex, Side] = {}
    markers: dict[Hex, Marker] = {}
    regions: list[int] = []
    if setup.custom_map is not None:
        for cell in setup.custom_map.hexes:
            terrain[cell.hex] = cell.terrain
            if cell.region is not None:
                region_of[cell.hex] = cell.region
            if cell.marker:
                markers[cell.hex] = cell.marker
            if cell.side:
                side[cell.hex] = cell.side
        regions = [r.id for r in setup.custom_map.regions]
    else:
        if setup.start is not None:
            for (ox, oy), kind, where in box.START_TILE:
                h = (setup.start[0] + ox, setup.start[1] + oy)
                terrain[h] = kind
                if where:
                    side[h] = where
        for region, placed in enumerate(setup.tiles, start=1):
            regions.append(region)
            for h, kind, marker in tile_hexes(placed.tile, placed.center, placed.rotated):
                terrain[h] = kind
                region_of[h] = region
                if marker:
                    markers[h] = marker
    land = {h: t for h, t in terrain.items() if t != box.WATER and t != box.CHASM}
    region_hexes: dict[int, list[Hex]] = {r: [] for r in regions}
    for h, r in region_of.items():
        region_hexes.setdefault(r, []).append(h)
    return GameMap(
        terrain=terrain,
        land=land,
        region_of=region_of,
        side=side,
        markers=markers,
        regions=tuple(regions),
        region_hexes={
            r: tuple(sorted(hs, key=lambda h: (h[1], h[0]))) for r, hs in region_hexes.items()
        },
    )
