"""Which store a command uses, said on standard error before it opens it, the game a
command line names in it, and where a command's heavy work runs."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, suppress
from typing import Any
from uuid import UUID

import click

from domain.store import GameLibrary
from services.compute import ComputeError, Pool, pool
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


SCHEDULER_HELP = (
    "A Dask scheduler's address (tcp://host:8786), or 'local' for a cluster on this machine, "
    "to run the work on [default: HOWL_DASK_SCHEDULER; unset: local processes]."
)


def scheduler_option(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The ``--scheduler`` option of the commands whose work a Dask cluster can run."""
    return click.option("--scheduler", help=SCHEDULER_HELP)(fn)


def on_pool(
    workers: int | None, scheduler: str | None, preload: Sequence[str] = ()
) -> AbstractContextManager[Pool]:
    """The pool a command's work runs on (:func:`scheduler_of`; see
    :func:`services.compute.pool`), said on standard error; a scheduler that does not answer
    is an error (exit 1)."""
    scheduler = scheduler_of(scheduler)
    return _said(pool(workers, scheduler, preload), quiet=scheduler is not None)


def scheduler_of(option: str | None) -> str | None:
    """The scheduler a command's work runs on: its ``--scheduler``, else
    ``HOWL_DASK_SCHEDULER``; None for local processes."""
    return option or Settings.from_env().dask_scheduler


@contextmanager
def _said(opening: AbstractContextManager[Pool], quiet: bool) -> Iterator[Pool]:
    try:
        with _quiet_client(quiet), opening as ready:
            click.echo(f"running on {ready.where}", err=True)
            yield ready
    except ComputeError as exc:
        raise click.ClickException(str(exc)) from None


@contextmanager
def _quiet_client(quiet: bool) -> Iterator[None]:
    """While a command runs on a cluster (``quiet``), until its client is closed, Dask's client
    logs nothing short of critical: a lost cluster is the command's one error line, not the
    tracebacks the client logs."""
    if quiet:
        with suppress(ImportError):  # Dask sets its loggers' levels when first imported
            import distributed  # noqa: F401
    client = logging.getLogger("distributed.client")
    level = client.level
    if quiet:
        client.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        client.setLevel(level)
