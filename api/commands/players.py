"""``howl players merge``: two spellings of a name made one player."""

from __future__ import annotations

import click

from api.commands.configured import using_store
from domain.store.players import merge
from services.library import open_library, open_read_models


@click.group("players")
def players() -> None:
    """Players' names: merge two spellings into one player."""


@players.command("merge")
@click.argument("alias")
@click.argument("into")
def merge_players(alias: str, into: str) -> None:
    """Make ALIAS's player the player INTO names, everywhere (statistics, ratings, pages),
    shown as INTO. Names already match case-, accent- and width-insensitively."""
    settings = using_store()
    with open_library(settings) as library:
        try:
            done = merge(library, alias, into)
        except ValueError as exc:
            raise click.BadParameter(str(exc)) from exc
        with open_read_models(settings) as models:
            models.catch_up(library)
    if done.gone is None:
        click.echo(f"{alias} and {into} are one player already, shown as {done.shown}; "
                   "nothing stored")  # fmt: skip
    else:
        click.echo(f"merged {alias} into {into}: one player, shown as {done.shown}")
