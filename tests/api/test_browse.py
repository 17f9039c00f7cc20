"""``GET /api/games`` (filters, sort, cursor pages), ``/api/stats`` and ``/api/players``, of
every game or of one."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from operator import itemgetter
from typing import Any

import pytest

from projections.summaries import names_key
from tests.api.client import Client
from tests.api.conftest import PRIVATE_GAME, SHARED_GAMES, TOKENS, Shared, record_of


def all_pages(client: Client, **query: Any) -> tuple[list[dict[str, Any]], int]:
    """Every item of a listing, following ``next_cursor``; and the reported total."""
    items: list[dict[str, Any]] = []
    cursor = None
    while True:
        page = client.get("/api/games", query={**query, **({"cursor": cursor} if cursor else {})})
        assert page.status == 200, page.body
        assert page.header("Cache-Control") == "no-cache"
        items += page.json["items"]
        cursor = page.json["next_cursor"]
        if cursor is None:
            return items, page.json["total"]


def players_of(name: str) -> list[dict[str, Any]]:
    return json.loads(record_of(name))["players"]


def public_names() -> list[str]:
    return [n for n in SHARED_GAMES if n != PRIVATE_GAME]


def test_lists_public_games_newest_first_in_pages(shared: Shared) -> None:
    items, total = all_pages(shared.client, limit=3)
    assert total == len(items) == len(public_names())
    assert {i["game_id"] for i in items} == {shared.ids[n] for n in public_names()}
    stamps = [i["uploaded_at"] for i in items]
    assert stamps == sorted(stamps, reverse=True)
    oldest_first, _ = all_pages(shared.client, sort="uploaded_at", limit=100)
    assert [i["game_id"] for i in oldest_first] == [i["game_id"] for i in reversed(items)]


def test_private_games_are_listed_for_their_uploader_only(shared: Shared) -> None:
    anonymous, _ = all_pages(shared.client)
    assert shared.ids[PRIVATE_GAME] not in {i["game_id"] for i in anonymous}
    uploader, total = all_pages(shared.server.as_user(TOKENS["ana"]))
    assert total == len(SHARED_GAMES)
    assert shared.ids[PRIVATE_GAME] in {i["game_id"] for i in uploader}
    other, total = all_pages(shared.server.as_user(TOKENS["bo"]))
    assert total == len(public_names())
    assert shared.ids[PRIVATE_GAME] not in {i["game_id"] for i in other}
    assert shared.server.as_user("wrong").get("/api/games").status == 403


def test_filters(shared: Shared) -> None:
    def ids(**query: Any) -> set[str]:
        return {i["game_id"] for i in all_pages(shared.client, **query)[0]}

    def expect(pick: Any) -> set[str]:
        return {shared.ids[n] for n in public_names() if pick(n)}

    assert ids(players=2) == expect(lambda n: len(players_of(n)) == 2)
    assert ids(terrain="tundra") == expect(
        lambda n: any(p["terrain"] == "tundra" for p in players_of(n))
    )
    name = players_of("5p-00-heuristic")[4]["name"]
    assert ids(player=name) == expect(lambda n: any(p["name"] == name for p in players_of(n)))
    assert ids(option="random_terrain") == {shared.ids["2p-07-random-terrain"]}
    now = datetime.now(UTC)
    assert ids(since=(now + timedelta(days=1)).date().isoformat()) == set()
    assert ids(until="2000-01-01") == set()
    assert ids(since="2000-01-01", until=(now + timedelta(days=1)).isoformat()) == expect(bool)
    for item in all_pages(shared.client, players=3)[0]:
        winners = shared.client.get(f"/api/games/{item['game_id']}").json["winners"]
        for winner in winners:
            assert item["game_id"] in ids(winner=winner)


def test_sorted_by_names_and_winner_over_every_page(shared: Shared) -> None:
    seated = itemgetter("seat")
    for sort, of in (
        ("names", lambda i: names_key([s["name"] for s in sorted(i["seats"], key=seated)])),
        ("winner", lambda i: names_key(i["winners"])),
    ):
        ascending, total = all_pages(shared.client, sort=sort, limit=2)
        assert len(ascending) == total == len(public_names())
        keys = [of(i) for i in ascending]
        assert keys == sorted(keys)
        descending, _ = all_pages(shared.client, sort=f"-{sort}", limit=3)
        assert [i["game_id"] for i in descending] == [i["game_id"] for i in reversed(ascending)]


@pytest.mark.parametrize(
    "query",
    [{"limit": 0}, {"limit": 101}, {"limit": "many"}, {"sort": "colour"}, {"terrain": "lava"},
     {"players": 7}, {"option": "fly"}, {"since": "yesterday"}, {"until": "2026-13-01"},
     {"cursor": "garbage!"}, {"game": "chess"}, {"game": ""}],
)  # fmt: skip
def test_bad_list_parameters_are_400_problems(shared: Shared, query: dict[str, Any]) -> None:
    reply = shared.client.get("/api/games", query=query)
    assert reply.status == 400, reply.body
    assert reply.content_type == "application/problem+json"
    assert reply.json["title"] == "Invalid parameters"
    assert set(reply.json["errors"]["query"]) == set(query)


def test_a_game_is_a_filter(shared: Shared) -> None:
    everything, total = all_pages(shared.client)
    wolves, same = all_pages(shared.client, game="the-wolves")
    assert wolves == everything and same == total
    assert {i["game"] for i in wolves} == {"the-wolves"}
    by_score, _ = all_pages(shared.client, sort="-top_score")
    assert by_score == all_pages(shared.client, sort="-top_vp")[0]  # its name in The Wolves
    assert [i["top_score"] for i in by_score] == sorted(
        (i["top_vp"] for i in by_score), reverse=True
    )
    assert {s["terrain"] for i in wolves for s in i["seats"]} <= set(
        p["terrain"] for n in public_names() for p in players_of(n)
    )


def test_stats(shared: Shared) -> None:
    everything = shared.client.get("/api/stats")
    assert everything.status == 200
    assert everything.header("Cache-Control") == "no-cache"
    assert everything.json["games"] == len(public_names())
    assert everything.json["game"] is None and "vp" not in everything.json
    assert everything.json["by_game"] == [{"game": "the-wolves", "games": len(public_names())}]
    wolves = shared.client.get("/api/stats", query={"game": "the-wolves"}).json
    assert wolves["game"] == "the-wolves" and wolves["games"] == len(public_names())
    assert {"vp", "actions", "region_winners"} <= set(wolves)
    assert wolves["win_rate"]["by_seat"] == everything.json["win_rate"]["by_seat"]
    assert {r["terrain"] for r in wolves["win_rate"]["by_terrain"]} <= set(
        p["terrain"] for n in public_names() for p in players_of(n)
    )
    big = shared.client.get("/api/stats", query={"option": "big_map"}).json  # The Wolves' (W-12)
    assert (big["game"], big["games"]) == ("the-wolves", 0)
    two = shared.client.get("/api/stats", query={"players": 2}).json
    assert two["games"] == sum(len(players_of(n)) == 2 for n in public_names())
    future = (datetime.now(UTC) + timedelta(days=1)).date().isoformat()
    assert shared.client.get("/api/stats", query={"since": future}).json["games"] == 0
    assert shared.client.get("/api/stats", query={"players": 1}).status == 400


def test_players(shared: Shared) -> None:
    name = players_of(SHARED_GAMES[0])[0]["name"]
    reply = shared.client.get(f"/api/players/{name}")
    assert reply.status == 200
    assert reply.json["name"] == name and reply.json["games"] >= 1
    assert reply.json["game"] is None and "terrain" not in reply.json
    wolves = shared.client.get(f"/api/players/{name}", query={"game": "the-wolves"}).json
    assert wolves["games"] == reply.json["games"] and wolves["terrain"] is not None
    assert wolves["average_vp"] == wolves["average_score"] == reply.json["average_score"]
    assert shared.client.get(f"/api/players/{name}", query={"game": "chess"}).status == 400
    missing = shared.client.get("/api/players/Nobody%20At%20All")
    assert (missing.status, missing.json["title"]) == (404, "Unknown player")


def test_a_prefix_of_a_game_id_redirects_to_the_full_id(shared: Shared) -> None:
    """The first 8 or more hex digits of one stored game's id (dashes or not) answer a 308 to
    the same path with the full id; a prefix no stored id begins with is a 404. (Checked by
    hand: the contract reads such a path as the full id's endpoint.)"""
    game_id = shared.ids[public_names()[0]]
    for prefix, rest in ((game_id[:8], "/timeline"), (game_id[:13], ""), (game_id[:8], "/record")):
        reply = shared.client.get(f"/api/games/{prefix.upper()}{rest}", check=False)
        assert reply.status == 308, reply.body
        assert reply.header("Location") == f"/api/games/{game_id}{rest}"
    taken = {i[:8] for i in shared.ids.values()}
    free = next(p for p in (f"{n:08x}" for n in range(100)) if p not in taken)
    missing = shared.client.get(f"/api/games/{free}")
    assert missing.status == 404 and missing.json["title"] == "Unknown game"
    assert missing.json["detail"] == f"No stored game's id begins with {free}."
    assert shared.client.get(f"/api/games/{game_id[:7]}").status == 404


def test_a_tag_or_a_text_keeps_the_games_that_have_it(shared: Shared) -> None:
    """``tag`` matches a whole tag; ``q`` a title's or a seat's name's text, case ignored; on
    the game list and the statistics alike. Text the store could never hold matches nothing."""

    def listed(**query: Any) -> set[str]:
        items, _ = all_pages(shared.client, limit=50, **query)
        return {i["game_id"] for i in items}

    def ids(*names: str) -> set[str]:
        return {shared.ids[n] for n in names}

    public = public_names()
    assert listed(tag="fixture") == ids(*public)
    assert listed(tag="2p") == ids(*(n for n in public if n.startswith("2p")))
    assert listed(tag="2") == set()  # a whole tag, not a part of one
    assert listed(q="ee") == ids("4p-00-heuristic", "5p-00-heuristic")  # Dee
    assert listed(q="ELI") == listed(q="Élí") == ids("5p-00-heuristic")  # names: accents too
    assert listed(tag=" FIXTURE ") == listed(tag="fixture")  # ASCII case, surrounding space
    assert listed(q="SELF-PLAY") == ids(*public)
    assert listed(q="50%") == listed(q="nobody") == set()
    assert listed(q="ee", tag="2p") == set()
    for query, games in (({"tag": "3p"}, 2), ({"q": "dee"}, 2), ({"tag": "none"}, 0)):
        stats = shared.client.get("/api/stats", query={"game": "the-wolves", **query}).json
        assert stats["games"] == games, query
    for bad in ({"tag": ""}, {"q": "a\x00"}, {"tag": "x" * 1001}):
        assert shared.client.get("/api/games", query=bad).status == 400, bad
