"""The game library (event store), the read models and the analyses that Howl's settings
point at."""

from __future__ import annotations

import re
from uuid import UUID

from domain.ruleset import Depth, ReviewSettings
from domain.store import GameLibrary, StoreConfig
from projections.analysis import default_settings
from projections.db import backend_of
from projections.readmodels import ReadModels
from services.config import Settings
from services.refusals import Refusal

MIN_PREFIX = 8
"""Fewest hex digits of a game id that name a game by its beginning."""
ID_PREFIX = re.compile(r"[0-9a-fA-F]{8}[0-9a-fA-F-]{0,28}")
"""What may name a game by its id's beginning (dashes where the full id has them, or none)."""
MAX_MATCHES = 10
"""Most games an ambiguous prefix's refusal lists."""


def store_config(settings: Settings) -> StoreConfig:
    """Where and how to reach the event store, from ``settings``."""
    return StoreConfig(
        settings.database_url,
        schema=settings.database_schema,
        pool_size=settings.db_pool_size,
        max_overflow=settings.db_max_overflow,
        connect_timeout=settings.db_connect_timeout,
    )


def open_library(settings: Settings | None = None) -> GameLibrary:
    """A :class:`GameLibrary` on the configured store (default: settings from the environment).

    The caller closes it (``library.close()`` or ``with open_library() as library:``).
    """
    return GameLibrary.open(store_config(settings or Settings.from_env()))


def open_read_models(settings: Settings | None = None) -> ReadModels:
    """The :class:`ReadModels` in the configured store's database (``HOWL_DATABASE_URL``,
    ``_SCHEMA``, ``HOWL_DB_POOL_SIZE``; default: settings from the environment).

    The caller closes them (``models.close()`` or ``with open_read_models() as models:``).
    """
    settings = settings or Settings.from_env()
    return ReadModels(
        settings.database_url, settings.database_schema, pool_size=settings.db_pool_size
    )


def analyses_url(settings: Settings) -> str:
    """The URL of the ``analyses`` table's database: the store's, in the store's schema.

    >>> analyses_url(Settings("postgresql://db/howl?sslmode=disable", database_schema="t1"))
    'postgresql://db/howl?sslmode=disable&options=-csearch_path%3Dt1'
    >>> analyses_url(Settings("sqlite:////srv/howl.sqlite3", database_schema="t1"))
    'sqlite:////srv/howl.sqlite3'
    """
    url = settings.database_url
    if backend_of(url) != "postgresql" or settings.database_schema == "public":
        return url
    option = f"options=-csearch_path%3D{settings.database_schema}"  # a plain identifier
    return f"{url}{'&' if '?' in url else '?'}{option}"


def analysis_settings(settings: Settings) -> ReviewSettings:
    """The review settings asked for when nobody names a depth: ``HOWL_ANALYSIS_DEPTH``'s,
    with ``HOWL_ANALYSIS_PLAYOUTS``/``_CANDIDATES`` in place of its own where set."""
    values = {"playouts": settings.analysis_playouts, "candidates": settings.analysis_candidates}
    return default_settings(
        settings.analysis_depth, **{k: v for k, v in values.items() if v is not None}
    )


def review_settings(settings: Settings, depth: Depth | None) -> ReviewSettings:
    """The settings of a review at ``depth``: for the server's own depth (and for None)
    those it reviews uploads with (:func:`analysis_settings`), for another that depth's.
    The API, the replay page and ``howl analyse`` all name depths so."""
    if depth is None or depth == settings.analysis_depth:
        return analysis_settings(settings)
    return default_settings(depth)


def id_prefix(text: str) -> str | None:
    """The hex digits of a game id's beginning (at least ``MIN_PREFIX``), or None when
    ``text`` is not one (a full id included).

    >>> id_prefix("0123ABCD-ef"), id_prefix("0123abc"), id_prefix("not-an-id")
    ('0123abcdef', None, None)
    """
    if not ID_PREFIX.fullmatch(text) or len(text) == 36:
        return None
    return text.replace("-", "").lower()


def game_by_prefix(library: GameLibrary, text: str) -> UUID:
    """The one stored game whose id begins with ``text`` (:func:`id_prefix`). A 404
    :class:`Refusal` ``unknown_game`` when none does (a 410 ``withdrawn_game`` when only a
    withdrawn game does), a 409 ``ambiguous_id`` listing the
    ``matches`` (at most ``MAX_MATCHES``) when several do."""
    prefix = id_prefix(text)
    if prefix is None:
        raise Refusal(404, "unknown_game", f"{text!r} is not a game id nor its first "
                      f"{MIN_PREFIX} or more hex digits.")  # fmt: skip
    found = [game_id for game_id in library.game_ids() if game_id.hex.startswith(prefix)]
    if not found:
        gone = [game_id for game_id in library.withdrawn_ids() if game_id.hex.startswith(prefix)]
        if len(gone) == 1:
            raise Refusal(410, "withdrawn_game", f"Game {gone[0]} was withdrawn by its "
                          "uploader; it is no longer shown.")  # fmt: skip
        raise Refusal(404, "unknown_game", f"No stored game's id begins with {text}.")
    if len(found) > 1:
        shown = [str(game_id) for game_id in found[:MAX_MATCHES]]
        more = f" and {len(found) - MAX_MATCHES} more" if len(found) > MAX_MATCHES else ""
        raise Refusal(409, "ambiguous_id", f"{len(found)} stored games' ids begin with {text}: "
                      f"{', '.join(shown)}{more}; give more digits.", matches=shown)  # fmt: skip
    return found[0]
