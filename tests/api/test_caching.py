"""Repeat requests for immutable answers skip Flask (``api.caching.CachedAnswers``) and get
the same answers, header for header and byte for byte, as the first time."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from itertools import product
from typing import Any

from api.caching import CachedAnswers
from services.config import Settings
from services.shared import services
from tests.api.conftest import TOKENS, Server, record_of, serving
from tests.api.contract import Contract, Reply

PATHS = ("states/0", "states/9", "timeline", "events?from=3&limit=5")
"""Immutable answers (the record is not: it carries the game's comments)."""
CODINGS: tuple[dict[str, str], ...] = ({}, {"Accept-Encoding": "gzip"})


def _answer(reply: Reply) -> tuple[int, bytes, dict[str, str]]:
    """What must not differ between two answers (the server's Date may)."""
    return reply.status, reply.body, {k: v for k, v in reply.headers.items() if k != "date"}


@contextmanager
def _counting(sqlite_url: str, contract: Contract, calls: list[str]) -> Iterator[Server]:
    """A live server whose requests that reach Flask are appended to ``calls``."""
    settings = Settings(sqlite_url, port=0, api_tokens=TOKENS, analysis=False)
    with serving(settings, contract) as (server, app):
        cached = app.wsgi_app
        assert isinstance(cached, CachedAnswers)
        flask = cached.app

        def counted(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
            calls.append(environ["PATH_INFO"])
            return flask(environ, start_response)

        cached.app = counted
        yield server


def test_repeats_are_answered_from_the_cache_as_the_first_time(
    sqlite_url: str, contract: Contract
) -> None:
    calls: list[str] = []
    with _counting(sqlite_url, contract, calls) as server:
        game_id = server.as_user(TOKENS["ana"]).upload(record_of("2p-00-heuristic")).json["game_id"]
        warm_304s = {}
        for path, coding in product(PATHS, CODINGS):
            url = f"/api/games/{game_id}/{path}"
            calls.clear()
            first = server.client.get(url, headers=coding)
            again = server.client.get(url, headers=coding)
            etag = first.header("ETag")
            assert etag is not None
            warm_304s[url, etag] = server.client.get(url, headers={**coding, "If-None-Match": etag})
            assert calls == [url.split("?")[0]], (url, coding)  # only the first reached Flask
            assert _answer(again) == _answer(first) and first.status == 200
    with _counting(sqlite_url, contract, calls) as cold:  # a new process: Flask answers 304s
        calls.clear()
        for (url, etag), warm in warm_304s.items():
            coding = CODINGS[etag.endswith('-gzip"')]
            flask_304 = cold.client.get(url, headers={**coding, "If-None-Match": etag})
            assert _answer(flask_304) == _answer(warm) and warm.status == 304
        assert calls == [url.split("?")[0] for url, _ in warm_304s]


def test_errors_and_heads_are_never_answered_from_the_cache(
    sqlite_url: str, contract: Contract
) -> None:
    calls: list[str] = []
    with _counting(sqlite_url, contract, calls) as server:
        game_id = server.as_user(TOKENS["ana"]).upload(record_of("2p-00-heuristic")).json["game_id"]
        calls.clear()
        heads = [
            server.client.request("HEAD", f"/api/games/{game_id}/{path}", check=False).status
            for path in ("states/9999", "states/1", "states/1")
        ]  # HEAD is not in the contract
        assert heads == [404, 200, 200]
        for _ in range(2):
            unknown = server.client.get(f"/api/games/{game_id}/states/9999")
            assert (unknown.status, unknown.json["title"]) == (404, "Unknown step")
        assert len(calls) == 5


def test_a_gzip_coded_answer_keeps_only_its_coded_body(sqlite_url: str, contract: Contract) -> None:
    """Clients that take gzip (every browser) do not make the process keep the plain body
    as well: it is kept once a client asks for it."""
    settings = Settings(sqlite_url, port=0, api_tokens=TOKENS, analysis=False)
    with serving(settings, contract) as (server, app):
        game_id = server.as_user(TOKENS["ana"]).upload(record_of("2p-00-heuristic")).json["game_id"]
        bodies = services(app).bodies
        for path in PATHS:
            url = f"/api/games/{game_id}/{path}"
            coded = server.client.get(url, headers={"Accept-Encoding": "gzip"})
            tag = (coded.header("ETag") or "").strip('"')
            assert tag.endswith("-gzip") and bodies.get(tag) is not None, url
            plain_tag = tag.removesuffix("-gzip")
            assert bodies.get(plain_tag) is None, url
            plain = server.client.get(url)
            assert plain.header("ETag") == f'"{plain_tag}"' and bodies.get(plain_tag) == plain.body
