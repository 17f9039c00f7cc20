"""``howl projections``: rebuild the read models, or bring them up to date with the store."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import click
import psycopg
from eventsourcing.persistence import PersistenceError
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from api.config import Settings
from api.library import open_library
from projections.readmodels import ReadModels

batch_option = click.option(
    "--batch-size",
    type=click.IntRange(min=1),
    default=2000,
    show_default=True,
    help="Notifications projected per transaction (whole games are never split).",
)
workers_option = click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Processes folding games (more than 1 pays off for long catch-ups and rebuilds).",
)
delay_option = click.option(
    "--delay",
    type=click.FloatRange(min=0),
    default=0.0,
    help="Seconds to pause after each game written (for tests and demonstrations).",
)


@click.group("projections")
def projections() -> None:
    """Read models (timelines, summaries, statistics) built from the event store."""


@contextmanager
def _progress(what: str) -> Iterator[Callable[[int, int], None]]:
    bar = Progress(
        TextColumn(what), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=Console(stderr=True), transient=True,
    )  # fmt: skip
    task = bar.add_task(what, total=None)
    with bar:
        yield lambda done, total: bar.update(task, completed=done, total=total)


def _models(batch_size: int, workers: int, delay: float) -> ReadModels:
    settings = Settings.from_env()
    return ReadModels(
        settings.database_url, settings.database_schema, batch_size=batch_size,
        workers=workers, delay=delay,
    )  # fmt: skip


@projections.command("rebuild")
@batch_option
@workers_option
@delay_option
def rebuild(batch_size: int, workers: int, delay: float) -> None:
    """Drop every read model and project the whole event store again.

    Readers see the read models fill up again while it runs.
    """
    started = time.perf_counter()
    try:
        with (
            open_library() as library,
            _models(batch_size, workers, delay) as models,
            _progress("rebuilding") as progress,
        ):
            done = models.rebuild(library, progress)
    except PersistenceError as exc:
        raise click.ClickException(f"the store does not answer: {exc}") from exc
    click.echo(f"rebuilt from {done} events in {time.perf_counter() - started:.1f} s")


@projections.command("catch-up")
@batch_option
@workers_option
@delay_option
@click.option("--follow", is_flag=True, help="Keep following the store until interrupted.")
@click.option(
    "--interval",
    type=click.FloatRange(min=0.05),
    default=1.0,
    show_default=True,
    help="With --follow: seconds between looks at the store.",
)
def catch_up(batch_size: int, workers: int, delay: float, follow: bool, interval: float) -> None:
    """Project the events stored since the last run (resumes where a stopped run left off)."""
    total = 0
    try:
        with open_library() as library, _models(batch_size, workers, delay) as models:
            with _progress("catching up") as progress:
                total = models.catch_up(library, progress)
            click.echo(f"projected {total} events (position {models.position()})")
            while follow:
                time.sleep(interval)
                try:
                    done = models.catch_up(library)
                except (PersistenceError, psycopg.Error, sqlite3.Error) as exc:
                    click.echo(f"the store failed, trying again: {exc}", err=True)
                    continue
                if done:
                    click.echo(f"projected {done} events (position {models.position()})")
    except PersistenceError as exc:
        raise click.ClickException(f"the store does not answer: {exc}") from exc
    except KeyboardInterrupt:
        click.echo("stopped")
