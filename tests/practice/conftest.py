"""Practice test fixtures: a fixture game reviewed once with tiny settings, and servers whose
analysis settings are those, holding the game and its stored review."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from domain.wolves.analysis.review import Settings as ReviewSettings
from domain.wolves.analysis.review import review
from domain.wolves.records import Record, read_record
from projections.analysis import Analyses
from services.config import Settings
from services.library import analyses_url
from tests.api.conftest import (  # noqa: F401 (contract, fresh_server: fixtures)
    TOKENS,
    Server,
    contract,
    fresh_server,
    record_of,
)
from tests.dashboard.conftest import (  # noqa: F401 (fixtures of the browser tests)
    browser_context_args,
    patient_expect,
    screenshot,
)

GAME = "2p-00-heuristic"
REVIEWED = range(77)
"""The actions reviewed (all 77: three mistakes of each seat at least)."""
QUICK = ReviewSettings(playouts=2, candidates=1)
"""Review settings small enough for two slow cores."""
SERVER = {"analysis_playouts": QUICK.playouts, "analysis_candidates": QUICK.candidates}
"""Server settings whose analysis settings are :data:`QUICK`."""
ANA = TOKENS["ana"]


def game_record() -> Record:
    """The fixture game practised."""
    return read_record(record_of(GAME))


@pytest.fixture(scope="session")
def reviewed() -> dict[str, Any]:
    """The review of :data:`GAME`'s first actions at :data:`QUICK`, as stored."""
    return review(game_record(), QUICK, workers=1, indexes=REVIEWED).to_json()


def flagged(result: dict[str, Any], seat: int | None = None) -> list[dict[str, Any]]:
    """The review's mistakes and blunders (of ``seat``), in game order."""
    return [
        s for s in result["steps"]
        if s["classification"] in ("mistake", "blunder") and seat in (None, s["seat"])
    ]  # fmt: skip


def store_review(settings: Settings, game_id: str, result: dict[str, Any]) -> None:
    """Store ``result`` as the game's done review at :data:`QUICK` on the store of a server
    of ``settings``, as the worker would."""
    Analyses(analyses_url(settings)).save(game_id, QUICK, result)


@dataclass(frozen=True)
class Practised:
    """A server holding :data:`GAME` with its review stored."""

    server: Server
    game_id: str
    result: dict[str, Any]

    def path(self, rest: str = "") -> str:
        return f"/api/games/{self.game_id}/practice{rest}"


@pytest.fixture
def practised(
    fresh_server: Callable[..., Server],  # noqa: F811 (the fixture imported above)
    reviewed: dict[str, Any],
) -> Callable[..., Practised]:
    """Start a server (settings overrides) on the test's backend with the game and review."""

    def start(**overrides: Any) -> Practised:
        server = fresh_server(**{**SERVER, **overrides})
        reply = server.as_user(ANA).upload(record_of(GAME))
        assert reply.status == 201, reply.body
        game_id = reply.json["game_id"]
        store_review(server.live.settings, game_id, reviewed)
        return Practised(server, game_id, reviewed)

    return start
