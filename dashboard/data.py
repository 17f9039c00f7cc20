"""Where the dashboard reads and stores games: the app's shared services
(:mod:`services.shared`), the same library, read models and analysis settings the API uses."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from uuid import UUID

from dashboard.game import rules_of
from domain.ruleset import DEPTHS, Depth
from domain.store import GameLibrary, UnknownGame, UploadResult
from projections.readmodels import ReadModels
from projections.timeline import timeline
from services.config import DASHBOARD_UPLOADER
from services.refusals import Refusal
from services.shared import services
from services.tokens import token_name
from services.uploads import read_upload

if TYPE_CHECKING:
    from domain.ruleset import ReviewSettings

MAX_TOKEN = 1_000
"""Longest token the dashboard sends on (no configured token is longer)."""


class WriteRefused(Exception):
    """A write the dashboard refuses, meaning what the API's 401 (no token) or 403 (a token
    the server does not know) would: ``status``, the problem ``kind`` and a message."""

    def __init__(self, status: int, kind: str, message: str) -> None:
        super().__init__(message)
        self.status, self.kind, self.message = status, kind, message


def tokens_required() -> bool:
    """Whether writes need a token (``HOWL_API_TOKENS`` is set)."""
    return bool(services().settings.api_tokens)


def writer(token: object, doing: str) -> str:
    """Who a write carrying ``token`` is stored as: the token's name (as the API does), or
    ``dashboard`` when no tokens are configured. Raises ``WriteRefused`` ("``doing`` needs a
    token", "This token is not accepted here.") for a missing or unknown token."""
    tokens = services().settings.api_tokens
    if not tokens:
        return DASHBOARD_UPLOADER
    if not isinstance(token, str) or not token.strip():
        raise WriteRefused(401, "missing_token", f"{doing} needs a token.")
    if len(token) > MAX_TOKEN:
        raise WriteRefused(403, "unknown_token", "This token is not accepted here.")
    try:
        name = token_name(tokens, f"Bearer {token.strip()}")
    except Refusal as err:
        raise WriteRefused(err.status, err.kind, "This token is not accepted here.") from None
    assert name is not None  # None only for a request without a header
    return name


def reader(token: object) -> str | None:
    """Whose private games a reader carrying ``token`` sees: the token's name; None for no
    token, an unknown one, or when no tokens are configured (then no game is anyone's)."""
    tokens = services().settings.api_tokens
    if not tokens or not isinstance(token, str) or not token.strip() or len(token) > MAX_TOKEN:
        return None
    try:
        return token_name(tokens, f"Bearer {token.strip()}")
    except Refusal:
        return None


def has_game(game_id: UUID) -> bool:
    """Whether the library stores a game with this id."""
    try:
        library().info(game_id)
    except UnknownGame:
        return False
    return True


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


def upload(raw: bytes, uploader: str) -> UploadResult:
    """Store a record as the API does: at most ``HOWL_MAX_ACTIONS`` actions, projected, its
    review queued. Raises ``InvalidRecord``/``RecordError`` or a ``Refusal`` (too many
    actions, too costly to check, a store that cannot write)."""
    svc = services()
    return svc.upload(read_upload(raw, svc.settings.max_actions), uploader)


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
    return timeline(rules_of(lib, game_id), lib.state_at(game_id, 0), steps)


def parse_game_id(text: str) -> UUID | None:
    """The game id in a URL segment, or None when it is not one."""
    try:
        return UUID(text)
    except ValueError:
        return None


def analysis_url() -> str:
    """The database holding the ``analyses`` table (the store's)."""
    return services().analyses_url


def analysis_depth() -> Depth:
    """The depth of the reviews asked for when nobody names one (``HOWL_ANALYSIS_DEPTH``)."""
    return services().settings.analysis_depth


def analysis_settings(depth: str | None = None) -> ReviewSettings:
    """The settings of a review at ``depth`` (a depth's name as a page sent it); the server's
    own for its depth, for None or for a name that is no depth's."""
    return services().review_settings(next((d for d in DEPTHS if d == depth), None))
