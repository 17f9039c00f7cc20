"""Where the dashboard reads games: the app's ``GameLibrary`` and ``ReadModels``.

They are the app's shared services (``howl.services``: ``library``, ``read_models``,
``catch_up()``, ``fresh()``) when the app has them; otherwise they are created from
``howl.settings`` on first use and kept in the app's extensions.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any
from uuid import UUID

from flask import current_app

from domain.store import GameLibrary, StoreConfig
from projections.readmodels import ReadModels
from projections.timeline import timeline

if TYPE_CHECKING:
    from api.config import Settings
    from domain.wolves.analysis.review import Settings as AnalysisSettings

SERVICES_KEY = "howl.services"
SETTINGS_KEY = "howl.settings"
LIBRARY_KEY = "howl.library"
READ_MODELS_KEY = "howl.read_models"
UPLOADER = "dashboard"

_lock = threading.Lock()


def settings() -> Settings:
    """The running app's settings."""
    return current_app.extensions[SETTINGS_KEY]


def _services() -> Any:
    return current_app.extensions.get(SERVICES_KEY)


def library() -> GameLibrary:
    """The app's game library (opened on first use)."""
    if (services := _services()) is not None:
        return services.library
    ext = current_app.extensions
    if LIBRARY_KEY not in ext:
        with _lock:
            if LIBRARY_KEY not in ext:
                s = settings()
                ext[LIBRARY_KEY] = GameLibrary.open(
                    StoreConfig(
                        s.database_url,
                        schema=s.database_schema,
                        pool_size=s.db_pool_size,
                        max_overflow=s.db_max_overflow,
                        connect_timeout=s.db_connect_timeout,
                    )
                )
    return ext[LIBRARY_KEY]


def read_models() -> ReadModels:
    """The app's read models (created on first use)."""
    if (services := _services()) is not None:
        return services.read_models
    ext = current_app.extensions
    if READ_MODELS_KEY not in ext:
        with _lock:
            if READ_MODELS_KEY not in ext:
                ext[READ_MODELS_KEY] = ReadModels.from_settings(settings())
    return ext[READ_MODELS_KEY]


def caught_up() -> ReadModels:
    """The read models after projecting what the library stored since their last look."""
    if (services := _services()) is not None:
        return services.catch_up()
    models = read_models()
    models.catch_up(library())
    return models


def fresh() -> ReadModels:
    """The read models, caught up unless that was done a moment ago."""
    if (services := _services()) is not None:
        return services.fresh()
    return caught_up()


def game_timeline(game_id: UUID) -> list[dict[str, Any]]:
    """The per-step timeline of a stored game (``projections.timeline`` rows): from the
    read models, or computed from the library when they do not have it yet."""
    rows = read_models().timeline(game_id)
    if rows is None:
        rows = caught_up().timeline(game_id)
    if rows is not None:
        return rows
    lib = library()
    steps: list[list[Any]] = [[] for _ in range(lib.steps(game_id))]
    for stored in lib.game_events(game_id):
        steps[stored.step].append(stored.event)
    return timeline(lib.state_at(game_id, 0), steps)


def parse_game_id(text: str) -> UUID | None:
    """The game id in a URL segment, or None when it is not one."""
    try:
        return UUID(text)
    except ValueError:
        return None


def analysis_url() -> str:
    """The database holding the ``analyses`` table: the app's (by default the store's)."""
    services = _services()
    return getattr(services, "analyses_url", None) or settings().database_url


def analysis_settings() -> AnalysisSettings | None:
    """The review settings the app asks for (None: the defaults)."""
    return getattr(_services(), "analysis_settings", None)
