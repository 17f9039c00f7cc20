"""``howl projections``: rebuild the read models, or bring them up to date with the store."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict

import click
import psycopg
from eventsourcing.persistence import PersistenceError
from rich.console import Console
from rich.table import Table

from api.commands.configured import using_store
from projections.readmodels import ReadModels
from projections.runner import BATCH
from projections.tables import TrackingGone
from services.config import Settings
from services.library import open_library
from services.progress import progress_bar

batch_option = click.option(
    "--batch-size",
    type=click.IntRange(min=1),
    default=BATCH,
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
    bar = progress_bar(what, transient=True)
    task = bar.add_task(what, total=None)
    with bar:
        yield lambda done, total: bar.update(task, completed=done, total=total)


def _models(batch_size: int, workers: int, delay: float, settings: Settings) -> ReadModels:
    return ReadModels(
        settings.database_url, settings.database_schema, batch_size=batch_size,
        workers=workers, delay=delay,
    )  # fmt: skip


@projections.command("rebuild")
@batch_option
@workers_option
@delay_option
def rebuild(batch_size: int, workers: int, delay: float) -> None:
    """Project the whole event store again, into new tables beside the live ones.

    Readers are served from the live tables until the new ones are complete; then they
    replace them in one transaction. Games that cannot be projected are recorded (see
    `howl projections failures`), not fatal.
    """
    started = time.perf_counter()
    settings = using_store()
    try:
        with (
            open_library(settings) as library,
            _models(batch_size, workers, delay, settings) as models,
            _progress("rebuilding") as progress,
        ):
            done = models.rebuild(library, progress)
            failed = models.failure_count()
    except PersistenceError as exc:
        raise click.ClickException(f"the store does not answer: {exc}") from exc
    except TrackingGone as exc:
        raise click.ClickException(f"{exc} (two rebuilds ran at once)") from exc
    click.echo(f"rebuilt from {done} events in {time.perf_counter() - started:.1f} s")
    if failed:
        click.echo(f"{failed} game(s) could not be projected: see howl projections failures")


@projections.command("failures")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array instead of a table.")
def failures(as_json: bool) -> None:
    """List the games left out of the read models because projecting them failed."""
    settings = using_store()
    try:
        with _models(1, 1, 0.0, settings) as models:
            found = models.failures()
    except PersistenceError as exc:
        raise click.ClickException(f"the store does not answer: {exc}") from exc
    if as_json:
        click.echo(json.dumps([asdict(f) for f in found], indent=2))
        return
    if not found:
        click.echo("no projection failures")
        return
    table = Table("game", "log position", "version", "stage", "failed at", "error")
    for f in found:
        table.add_row(f.game_id, str(f.position), str(f.version), f.stage, f.failed_at, f.error)
    Console(width=200).print(table)


@projections.command("retry")
def retry() -> None:
    """Project the failed games again (after a fix): those that now project leave the list.

    Exits 1 when some still fail.
    """
    settings = using_store()
    try:
        with open_library(settings) as library, _models(1, 1, 0.0, settings) as models:
            fixed, remaining = models.retry(library)
    except PersistenceError as exc:
        raise click.ClickException(f"the store does not answer: {exc}") from exc
    for game_id in fixed:
        click.echo(f"projected {game_id}")
    for f in remaining:
        click.echo(f"still failing {f.game_id} ({f.stage}): {f.error}")
    click.echo(f"{len(fixed)} projected, {len(remaining)} still failing")
    if remaining:
        raise SystemExit(1)


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
    settings = using_store()
    try:
        with (
            open_library(settings) as library,
            _models(batch_size, workers, delay, settings) as models,
        ):
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
