"""Demo data for ``howl serve --demo``: a dozen self-play games when the store is empty."""

from __future__ import annotations

from rich.progress import track

from api.commands.simulate import simulate_one
from domain.wolves.setup import Options
from services.config import Settings
from services.library import open_library, open_read_models

DEMO_GAMES = 12
DEMO_SEED = 2022


def seed_demo(settings: Settings) -> int:
    """Store ``DEMO_GAMES`` heuristic self-play games (2–5 players) if the store holds none.

    Returns the number of games seeded; the read models are brought up to date after.
    """
    with open_library(settings) as library:
        if library.recorder.max_notification_id():
            return 0
        for i in track(range(DEMO_GAMES), description="seeding demo games"):
            data, _ = simulate_one(i, 2 + i % 4, DEMO_SEED, "heuristic", Options())
            library.upload(data, uploaded_by="demo", tags=("demo",))
        with open_read_models(settings) as models:
            models.catch_up(library)
    return DEMO_GAMES
