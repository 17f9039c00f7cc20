"""Where the dashboard reads and stores games: the app's shared services (``api.services``),
the same library, read models and analysis settings the API uses."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from uuid import UUID

from api.services import services
from api.uploads import read_document
from domain.store import GameLibrary, UploadResult
from projections.readmodels import ReadModels
from projections.timeline import timeline

if TYPE_CHECKING:
    from domain.wolves.analysis.review import Settings as AnalysisSettings

UPLOADER = "dashboard"
"""The uploader stored with records dropped on the dashboard (it asks for no token)."""


def library() -> GameLibrary:
    """The app's game library."""
    return services().library


def read_models() -> ReadModels:
    """The app's read models."""
    return services().read_models


def caught_up() -> ReadModels:
    """The read models after projecting what the library stored since their last look."""
    return services().catch_up()


def fresh() -> ReadModels:
    """The read models, caught up unless that was done a moment ago."""
    return services().fresh()


def upload(raw: bytes) -> UploadResult:
    """Store a record as the API does: at most ``HOWL_MAX_ACTIONS`` actions, projected, its
    review queued. Raises ``InvalidRecord``/``RecordError`` or a 422 ``Problem``."""
    svc = services()
    return svc.upload(read_document(raw, svc.settings.max_actions), UPLOADER)


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
    """The database holding the ``analyses`` table (the store's)."""
    return services().analyses_url


def analysis_settings() -> AnalysisSettings:
    """The review settings the app asks for."""
    return services().analysis_settings
