"""Which store a command uses, said on standard error before it opens it, and the game a
command line names in it."""

from __future__ import annotations

from uuid import UUID

import click

from domain.store import GameLibrary
from services.config import Settings, store_name
from services.library import game_by_prefix
from services.refusals import Refusal


def using_store(settings: Settings | None = None) -> Settings:
    """``settings`` (default: from the environment), once ``store: …`` has named their store on
    standard error, so that a command never writes to a store its user did not mean."""
    settings = settings or Settings.from_env()
    shown = store_name(settings.database_url, settings.database_schema)
    click.echo(f"store: {shown} (HOWL_DATABASE_URL)", err=True)
    return settings


def stored_game(library: GameLibrary, text: str) -> UUID:
    """The game ``text`` names: its full id, or the first 8 or more hex digits of one stored
    game's id; otherwise a usage error saying why (several matches are listed)."""
    try:
        return UUID(text)
    except ValueError:
        pass
    try:
        return game_by_prefix(library, text)
    except Refusal as exc:
        raise click.ClickException(exc.detail) from None
