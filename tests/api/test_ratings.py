"""Ratings through real HTTP on both backends: a league where one player always wins puts them
first, a season or a tag rates only its games, a player's page carries their rating, history
and opponents, and two players meet head to head; bad names and queries are refused."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import orjson
import pytest

from domain.games import ruleset
from domain.replays import replay
from tests.api.conftest import TOKENS, Server

MOONLIGHT = ruleset("moonlight")
LOSERS = ("Bo", "Cy", "Di")


def league_record(index: int, played_on: str | None = None) -> bytes:
    """Moonlight game ``index`` of self-play, its winner named Zoë (written ``zoë`` or
    ``Zoë``: one player) and its loser one of :data:`LOSERS` in turn; played on the day
    ``played_on`` names, when given."""
    record = MOONLIGHT.self_play(2, ["greedy", "random"], 1000 + index)
    places = [s.place for s in MOONLIGHT.scores(replay(MOONLIGHT, record).state)]
    doc = orjson.loads(MOONLIGHT.write_record(record))
    winner = places.index(1) if places.count(1) == 1 else None
    for seat, player in enumerate(doc["players"]):
        won = seat == winner
        player["name"] = ("zoë" if index % 3 else "Zoë") if won else LOSERS[index % 3]
    if played_on is not None:
        doc["meta"] = {**doc.get("meta", {}), "played_on": played_on}
    return orjson.dumps(doc)


@pytest.fixture
def league(fresh_server: Callable[..., Server]) -> Server:
    """A server holding 18 league games (and one game with a single player twice)."""
    server = fresh_server()
    uploader = server.as_user(TOKENS["ana"])
    for i in range(18):
        query = {"tags": "club"} if i % 2 == 0 else None
        assert uploader.upload(league_record(i), query=query).status == 201
    return server


def test_the_player_who_always_wins_leads_and_a_tag_or_season_rates_only_its_games(
    league: Server,
) -> None:
    board = league.client.get("/api/ratings", query={"game": "moonlight"}).json
    names = [p["name"] for p in board["players"]]
    assert board["game"] == "moonlight" and names[0] == "zoë"  # as last written
    assert sorted(names[1:]) == sorted(LOSERS) and board["games"] == 18
    zoe = board["players"][0]
    assert zoe["games"] == zoe["wins"] == 18 and zoe["rating"] == pytest.approx(
        zoe["mu"] - 3 * zoe["sigma"], abs=1e-2
    )
    assert zoe["rating"] > max(p["rating"] for p in board["players"][1:])
    assert league.client.get("/api/ratings").json == board  # the most played game by default
    club = league.client.get("/api/ratings", query={"game": "moonlight", "tag": "club"}).json
    assert club["games"] == 9 and club["players"][0]["games"] == 9
    none = league.client.get("/api/ratings", query={"game": "moonlight", "until": "2000-01-01"})
    assert none.json == {"game": "moonlight", "games": 0, "players": []}
    wolves = league.client.get("/api/ratings", query={"game": "the-wolves"}).json
    assert wolves == {"game": "the-wolves", "games": 0, "players": []}


def test_a_players_page_has_their_rating_history_and_opponents(league: Server) -> None:
    profile = league.client.get(f"/api/players/{quote('ZOË')}").json
    assert league.client.get("/api/players/ZOE").json == profile  # case and accents ignored
    (rated,) = profile["ratings"]
    assert rated["game"] == "moonlight" and rated["name"] == "zoë" and rated["games"] == 18
    history = rated["history"]
    assert len(history) == 18 and all(step["place"] == 1 for step in history)
    assert [s["rating"] for s in history] == sorted(s["rating"] for s in history)
    assert history[0]["win_chance"] == pytest.approx(0.5) and history[0]["change"] > 0
    assert history[-1]["predicted_place"] == 1 and history[-1]["win_chance"] > 0.8
    opponents = {o["name"]: o for o in rated["opponents"]}
    assert set(opponents) == set(LOSERS)
    assert all(o["games"] == o["wins"] == 6 and o["losses"] == 0 for o in opponents.values())


def test_two_players_head_to_head(league: Server) -> None:
    met = league.client.get(f"/api/players/{quote('zoë')}/vs/bo", query={"game": "moonlight"}).json
    zoe, bo = met["players"]
    assert (zoe["name"], bo["name"]) == ("zoë", "Bo")
    assert (zoe["wins_against"], bo["wins_against"]) == (6, 0)
    assert (zoe["average_place"], bo["average_place"]) == (1.0, 2.0)
    assert met["rating_gap"] == pytest.approx(zoe["rating"] - bo["rating"], abs=1e-2)
    assert len(met["games"]) == 6 and all(g["places"] == [1, 2] for g in met["games"])
    strangers = league.client.get("/api/players/bo/vs/cy", query={"game": "moonlight"}).json
    assert strangers["games"] == [] and strangers["players"][0]["average_place"] is None


@pytest.mark.parametrize(
    ("path", "query", "status", "said"),
    [
        (f"/api/players/{quote('zoë')}/vs/nobody", {"game": "moonlight"}, 404, "not both rated"),
        (f"/api/players/{quote('zoë')}/vs/{'x' * 201}", {}, 400, "other: Longer than 200"),
        (f"/api/players/{quote('zoë')}/vs/ZOE", {}, 400, "other: Name two players"),
        ("/api/ratings", {"game": "chess"}, 400, "game"),
        ("/api/ratings", {"tag": "a\x00b"}, 400, "tag"),
        ("/api/ratings", {"bots": "maybe"}, 400, "bots"),
        ("/api/ratings", {"since": "yesterday"}, 400, "since"),
    ],
)  # fmt: skip
def test_bad_asks_are_refused_saying_where(
    league: Server, path: str, query: dict[str, Any], status: int, said: str
) -> None:
    reply = league.client.get(path, query=query)
    assert reply.status == status, reply.body
    assert said in reply.json["detail"]


def test_a_game_shows_each_seats_rating_change_and_the_prediction_before_it(
    league: Server,
) -> None:
    listed = league.client.get("/api/games", query={"game": "moonlight", "sort": "uploaded_at"})
    first, *_, last = [g["game_id"] for g in listed.json["items"]]
    opening = league.client.get(f"/api/games/{first}/ratings").json
    assert opening["game"] == "moonlight" and len(opening["seats"]) == 2
    winner, loser = sorted(opening["seats"], key=lambda s: s["place"])
    assert winner["before"] == loser["before"] == 0.0
    assert winner["win_chance"] == loser["win_chance"] == pytest.approx(0.5)
    assert winner["change"] > 0 and winner["rating"] > loser["rating"]
    closing = league.client.get(f"/api/games/{last}/ratings").json
    zoe = next(s for s in closing["seats"] if s["name"].casefold() == "zoë")
    assert zoe["predicted_place"] == 1 and zoe["win_chance"] > 0.8 and zoe["place"] == 1
    missing = league.client.get(f"/api/games/{'0' * 8}-0000-0000-0000-{'0' * 12}/ratings")
    assert (missing.status, missing.json["title"]) == (404, "Unrated game")


def test_games_are_rated_and_filtered_by_the_day_they_were_played(
    fresh_server: Callable[..., Server],
) -> None:
    """Uploaded newest first, played oldest first: the league rates them as played, a season
    is of the days played, and a game with no day played counts as played when uploaded."""
    server = fresh_server()
    uploader = server.as_user(TOKENS["ana"])
    days = ["2025-03-04", "2025-03-03", "2025-03-02", None]
    ids = [uploader.upload(league_record(i, day)).json["game_id"] for i, day in enumerate(days)]
    summary = server.client.get(f"/api/games/{ids[0]}").json
    assert summary["played_at"].startswith("2025-03-04T00:00:00")
    undated = server.client.get(f"/api/games/{ids[3]}").json
    assert undated["played_at"] == undated["uploaded_at"]
    history = server.client.get(f"/api/players/{quote('zoë')}").json["ratings"][0]["history"]
    assert [step["game_id"] for step in history] == [ids[2], ids[1], ids[0], ids[3]]
    march = {"game": "moonlight", "since": "2025-03-03", "until": "2025-03-31"}
    assert server.client.get("/api/ratings", query=march).json["games"] == 2
    listed = server.client.get("/api/games", query=march).json
    assert sorted(g["game_id"] for g in listed["items"]) == sorted(ids[:2])
