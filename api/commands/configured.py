"""Which store a command uses, said on standard error before it opens it."""

from __future__ import annotations

import click

from services.config import Settings, store_name


def using_store(settings: Settings | None = None) -> Settings:
    """``settings`` (default: from the environment), once ``store: …`` has named their store on
    standard error, so that a command never writes to a store its user did not mean."""
    settings = settings or Settings.from_env()
    shown = store_name(settings.database_url, settings.database_schema)
    click.echo(f"store: {shown} (HOWL_DATABASE_URL)", err=True)
    return settings
