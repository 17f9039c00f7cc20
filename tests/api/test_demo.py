"""``howl serve --demo``: self-play games of every demo game, once, into an empty store."""

from __future__ import annotations

from collections import Counter

import pytest

from api import demo
from domain import games
from domain.ruleset import Ruleset
from services.config import Settings
from services.library import open_library


def test_the_demo_seeds_each_demo_game_once(
    sqlite_url: str, takeaway: Ruleset, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert games.DEMO == {"the-wolves": 12, "moonlight": 4}
    monkeypatch.setattr(games, "DEMO", {"the-wolves": 1, "takeaway": 3})
    settings = Settings(sqlite_url, analysis=False)

    assert demo.seed_demo(settings) == 4
    with open_library(settings) as library:
        infos = [library.info(game_id) for game_id in library.game_ids()]
    assert Counter(i.game for i in infos) == {"the-wolves": 1, "takeaway": 3}
    assert all(i.uploaded_by == "demo" and i.tags == ("demo",) and i.finished for i in infos)
    titles = {i.title for i in infos if i.game == "takeaway"}
    assert titles == {"Self-play #1", "Self-play #2", "Self-play #3"}
    assert demo.seed_demo(settings) == 0  # the store holds games: nothing more is seeded
