"""A replay link by a short id, over real HTTP: ``/replay/<8+ hex digits>`` redirects to
the game's own address with its query, and the page says why when the prefix names no
game or several (``services.library.game_by_prefix``)."""

from __future__ import annotations

from collections.abc import Callable
from http.client import HTTPConnection
from urllib.parse import urlsplit

from domain.store import GameLibrary
from tests.conftest import LiveServer
from tests.dashboard.callbacks import call, dependencies, find
from tests.store.test_id_prefix import RECORD, TWINS, titled


def head(server: LiveServer, path: str) -> tuple[int, str | None]:
    """The status and ``Location`` of a GET of ``path``, redirects not followed."""
    where = urlsplit(server.url)
    connection = HTTPConnection(where.hostname or "", where.port, timeout=30)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status, response.getheader("Location")
    finally:
        connection.close()


def page_text(server: LiveServer, path: str) -> str:
    """The page the dashboard draws for ``path``, as the browser's router asks for it."""
    page = find(dependencies(server.url), "page.children")
    answer = call(server.url, page, {"url.pathname": path, "url.search": ""})
    assert answer.status == 200, answer
    return answer.text()


def test_a_short_replay_link_opens_the_game(
    live_server_factory: Callable[..., LiveServer], sqlite_url: str
) -> None:
    with GameLibrary.open(sqlite_url) as library:
        a, b = (library.upload(titled(title)).game_id for title in TWINS)
        other = library.upload(RECORD).game_id
    server = live_server_factory()
    assert head(server, f"/replay/{str(other)[:13].upper()}?step=4") == (
        302, f"/replay/{other}?step=4"
    )  # fmt: skip
    assert head(server, f"/replay/{other.hex[:8]}") == (302, f"/replay/{other}")
    assert head(server, f"/replay/{a.hex[:8]}")[0] == 200  # several: the page says so
    assert head(server, f"/replay/{other.hex[:7]}")[0] == 200  # too short to be a prefix
    assert "replay-slider" in page_text(server, f"/replay/{other.hex[:10]}")  # in-app links
    ambiguous = page_text(server, f"/replay/{a.hex[:8]}")
    assert "Game not found" in ambiguous and "give more digits" in ambiguous
    assert str(a) in ambiguous and str(b) in ambiguous
    none = page_text(server, "/replay/ffffffffff")
    assert "No stored game's id begins with ffffffffff" in none
    assert "replay-slider" not in none
    short = page_text(server, f"/replay/{other.hex[:7]}")
    assert f"'{other.hex[:7]}' is not a game id nor its first 8 or more hex digits" in short
