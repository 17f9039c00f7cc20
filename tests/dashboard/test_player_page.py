"""The player page of someone who played several games, over real HTTP as the browser's
router asks for it: a trend chart and an average per game, each in its own unit, and a rating
chart and head to head per game's league."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from domain.store import GameLibrary
from tests.conftest import LiveServer
from tests.dashboard.callbacks import call, dependencies, find
from tests.dashboard.conftest import FIXTURES

PLAYED = (FIXTURES.parent / "moonlight" / "00-greedy.json", FIXTURES / "2p-00-heuristic.json")


def found(node: Any, kind: str) -> list[dict[str, Any]]:
    """The props of every component of a kind (``Graph``, ``Th``) in a rendered tree."""
    if isinstance(node, list):
        return [f for n in node for f in found(n, kind)]
    if not isinstance(node, dict):
        return []
    props = node.get("props", {})
    return ([props] if node.get("type") == kind else []) + found(props.get("children"), kind)


def test_each_game_a_player_played_has_its_own_trend(
    live_server_factory: Callable[..., LiveServer], sqlite_url: str
) -> None:
    with GameLibrary.open(sqlite_url) as library:
        for path in PLAYED:
            library.upload(path.read_bytes())
    server = live_server_factory()
    page = find(dependencies(server.url), "page.children")
    answer = call(server.url, page, {"url.pathname": "/player/Ana", "url.search": ""})
    assert answer.status == 200, answer
    tree = answer.output("page", "children")
    *shown, moonlight_rating, wolves_rating = [props["figure"] for props in found(tree, "Graph")]
    heads = [props["children"] for props in found(tree, "Th")]
    assert heads == [
        "Opponent", "Games", "Won", "Lost", "Opponent", "Games", "Won", "Lost",  # head to head
        "#", "Title", "Game", "Played", "Opponents", "Score", "Result",
    ]  # fmt: skip
    titles = [f["layout"]["title"]["text"] for f in shown]
    assert titles == ["Moonlight: The Land of the Wolves — rounds won per game (star: won)",
                      "The Wolves — VP per game (star: won)"]  # fmt: skip
    for rated, title in ((moonlight_rating, "Moonlight: The Land of the Wolves"),
                         (wolves_rating, "The Wolves")):  # fmt: skip
        assert rated["layout"]["title"]["text"] == f"{title} — rating, game by game"
        assert len(rated["data"][1]["y"]) == 1  # one rated game each
    expected = [json.loads(p.with_suffix(".expected.json").read_text()) for p in PLAYED]
    ana = [e["scores"][0]["total"] for e in expected]  # Ana sits at seat 0 in both
    assert [f["data"][1]["y"] for f in shown] == [[ana[0]], [ana[1]]]
    assert [f["data"][0]["y"] for f in shown] == [[ana[0]], [ana[1]]]  # each its own average
    summary = answer.text()
    assert f"{ana[0]:.1f} rounds won (Moonlight" in summary
    assert f"{ana[1]:.1f} VP (The Wolves)" in summary
