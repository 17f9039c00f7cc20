"""The game list: filters, sorting and cursors."""

from __future__ import annotations

import json

import pytest

from tests.projections.conftest import FIXTURES, Store, upload

CORPUS = ["2p-00-heuristic", "2p-08-big-map", "3p-00-heuristic", "3p-08-three-lone-wolves",
          "4p-09-auto-push-stall-10", "5p-01-heuristic", "5p-07-random-terrain"]  # fmt: skip


def winners(name: str) -> set[int]:
    """The seats that won a fixture game (none if it is unfinished)."""
    expected = json.loads((FIXTURES / f"{name}.expected.json").read_text())
    return {s["seat"] for s in expected["scores"] if s["place"] == 1 and expected["finished"]}


def test_pages_follow_the_sort_without_gaps(store: Store) -> None:
    with store.library() as library, store.models() as models:
        upload(library, CORPUS)
        models.catch_up(library)
        for sort in ("-uploaded_at", "uploaded_at", "players", "-top_vp", "title", "-turns"):
            seen, cursor = [], None
            while True:
                page = models.list_games(sort=sort, limit=3, cursor=cursor)
                assert page.total == len(CORPUS)
                seen += page.items
                cursor = page.next_cursor
                if cursor is None:
                    break
            key = sort.removeprefix("-")
            values = [(g[key] or "") for g in seen]
            assert values == sorted(values, reverse=sort.startswith("-"))
            assert len({g["game_id"] for g in seen}) == len(CORPUS)
        with pytest.raises(ValueError):
            models.list_games(sort="players", cursor=page.next_cursor or "bad")
        with pytest.raises(ValueError):
            models.list_games(sort="colour")


def test_filters(store: Store) -> None:
    with store.library() as library, store.models() as models:
        ids = upload(library, CORPUS)
        library.set_visibility(ids["5p-01-heuristic"], "private")
        models.catch_up(library)

        def names(**filters: object) -> set[str]:
            page = models.list_games(limit=100, **filters)  # type: ignore[arg-type]
            found = {g["game_id"] for g in page.items}
            assert page.total == len(found)
            return {name for name, i in ids.items() if str(i) in found}

        assert names() == set(CORPUS) - {"5p-01-heuristic"}
        assert "5p-01-heuristic" in names(include_private=True)
        assert names(players=3) == {"3p-00-heuristic", "3p-08-three-lone-wolves"}
        assert names(option="big_map") == {"2p-08-big-map"}
        assert names(option="lone_wolves_per_region=3") == {"3p-08-three-lone-wolves"}
        assert names(option="auto_push,stall_limit_rounds=10") == {"4p-09-auto-push-stall-10"}
        # the big map implies a stall limit of 10 (W-12), and its summary says so
        limited = {"4p-09-auto-push-stall-10", "2p-08-big-map"}
        assert names(option="stall_limit_rounds=10") == limited
        assert names(option="random_terrain") == {"5p-07-random-terrain"}
        assert names(player="eli") == {"5p-07-random-terrain"}
        bo_won = {n for n in CORPUS if winners(n) == {1}} - {"5p-01-heuristic"}
        assert names(winner="Bo") == bo_won
        assert names(terrain="grassland", players=5) == {"5p-07-random-terrain"}
        item = models.list_games(players=2, sort="title", limit=1).items[0]
        assert {s["name"] for s in item["seats"]} == {"Ana", "Bo"}
        two = models.list_games(players=2).items  # 2p-00-heuristic and 2p-08-big-map
        assert sorted(g["options"]["big_map"] for g in two) == [False, True]


def test_unknown_games_read_as_none(store: Store) -> None:
    import uuid

    with store.models() as models:
        assert models.summary(uuid.uuid4()) is None
        assert models.timeline(uuid.uuid4()) is None
        assert models.stats()["games"] == 0
