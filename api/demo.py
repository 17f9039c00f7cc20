"""Demo data for ``howl serve --demo``: self-play games of each demo game when the store is
empty."""

from __future__ import annotations

from rich.progress import track

from api.commands.simulate import simulate_one, strongest
from domain import games
from domain.games import ruleset
from services.config import DEMO_UPLOADER, Settings
from services.library import open_library, open_read_models

DEMO_SEED = 2022


def seed_demo(settings: Settings) -> int:
    """Store :data:`domain.games.DEMO` (their strongest computer players in every seat, the player
    counts cycling through what each game allows) if the store holds none.

    Returns the number of games seeded; the read models are brought up to date after.
    """
    jobs = [
        (game, i, rules.seats[i % len(rules.seats)], strongest(rules))
        for game, count in games.DEMO.items()
        for rules in [ruleset(game)]
        for i in range(count)
    ]
    with open_library(settings) as library:
        if library.recorder.max_notification_id():
            return 0
        for game, i, players, kind in track(jobs, description="seeding demo games"):
            data, _ = simulate_one(i, players, DEMO_SEED, kind, game=game)
            library.upload(data, uploaded_by=DEMO_UPLOADER, tags=("demo",))
        with open_read_models(settings) as models:
            models.catch_up(library)
    return len(jobs)
