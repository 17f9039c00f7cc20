"""``howl import`` and ``howl export``: move game records of any registered game in and out of
the event store."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from uuid import UUID

import click
from eventsourcing.persistence import PersistenceError
from rich.console import Console
from rich.markup import escape

from api.commands.configured import (
    on_pool,
    scheduler_of,
    scheduler_option,
    stored_game,
    using_store,
)
from domain.documents import canonical_json
from domain.replays import RecordError
from domain.ruleset import InvalidRecord
from domain.store import GameLibrary, UnknownGame, WithdrawnGame
from domain.store.comments import TooManyComments, annotate, exported_record
from domain.store.purge import NotWithdrawn, purge
from domain.store.uploads import EncodedGame, encode, prepare_record
from projections.analysis import Analyses
from services.library import analyses_url, open_library, open_read_models
from services.progress import progress_bar


@dataclass(frozen=True)
class Source:
    """One record to import: a label for messages and how to read its bytes."""

    label: str
    read: Callable[[], bytes]


@dataclass
class Tally:
    """What an import did, file by file."""

    imported: int = 0
    duplicates: int = 0
    failed: list[str] = field(default_factory=list)
    not_attempted: int = 0

    def summary(self, files: int) -> str:
        """One line: ``imported 3, duplicates 1, failed 1 (5 files)``."""
        text = (
            f"imported {self.imported}, duplicates {self.duplicates}, "
            f"failed {len(self.failed)} ({files} files)"
        )
        if self.not_attempted:
            text += f"; {self.not_attempted} not attempted"
        return text


def sources(paths: tuple[str, ...]) -> Iterator[Source]:
    """Each path as a record source: ``-`` is standard input, a folder its ``*.json`` files."""
    for raw in paths:
        if raw == "-":
            yield Source("<stdin>", sys.stdin.buffer.read)
            continue
        path = Path(raw)
        files = sorted(p for p in path.rglob("*.json") if p.is_file()) if path.is_dir() else [path]
        for file in files:
            yield Source(str(file), file.read_bytes)


def error_json(exc: Exception) -> dict[str, Any]:
    """A bad record's error as JSON: the engine's own, or ``unreadable`` for I/O errors."""
    to_json = getattr(exc, "to_json", None)
    if callable(to_json):
        return to_json()
    return {"error": "unreadable", "message": str(exc)}


def read(source: Source) -> bytes | dict[str, Any]:
    """A source's bytes, or the error reading it as JSON."""
    try:
        return source.read()
    except OSError as exc:
        return error_json(exc)


@dataclass(frozen=True)
class Checked:
    """A record made ready for the store (encoded as it keeps it), with its ``annotations``
    (``{"annotations": …}``, as the reader checked them) when it has any."""

    game: EncodedGame
    notes: dict[str, Any] | None


def checked(data: bytes | dict[str, Any]) -> Checked | dict[str, Any]:
    """A record made ready for the store, or its error as JSON (an error read passes)."""
    if isinstance(data, dict):
        return data
    try:
        game = encode(prepare_record(data))
    except (InvalidRecord, RecordError) as exc:
        return error_json(exc)
    notes = json.loads(data).get("annotations") if b'"annotations"' in data else None
    return Checked(game, {"annotations": notes} if notes else None)


def checked_records(
    todo: Sequence[Source], jobs: int, scheduler: str | None = None
) -> Generator[tuple[Source, Checked | dict[str, Any]]]:
    """Each source with its prepared game or error, in order; ``jobs`` processes (or the
    Dask cluster at ``scheduler``) check them, a bounded number of records ahead of the one
    being stored."""
    if jobs <= 1 and scheduler is None:
        yield from ((source, checked(read(source))) for source in todo)
        return
    with on_pool(jobs, scheduler, preload=["domain.store.uploads"]) as ready:
        results = ready.finished(checked, ((read(source),) for source in todo), ordered=True)
        for source, (_, done) in zip(todo, results, strict=True):
            yield source, done.result()


def store_checked(library: GameLibrary, ready: Checked) -> bool:
    """Store a prepared game unless it is stored already, and its annotations as comments
    (those it has not, as an upload does); True when the game was new. A game its uploader
    withdrew is not stored again (``WithdrawnGame``)."""
    game = ready.game
    if library.exists(game.game_id) and library.withdrawn(game.game_id):
        raise WithdrawnGame(game.game_id)
    created = not library.exists(game.game_id) and library.add(game).created
    if ready.notes is not None:
        annotate(library, game.game_id, ready.notes, None)
    return created


@click.command("import")
@click.argument("paths", nargs=-1, required=True)
@click.option(
    "--jobs", type=click.IntRange(min=1), default=os.cpu_count() or 1, show_default="CPUs",
    help="Processes (or a local cluster's workers) checking records with the rules engine "
    "while this one stores them.",
)  # fmt: skip
@scheduler_option
def import_records(paths: tuple[str, ...], jobs: int, scheduler: str | None) -> None:
    """Store game records: files, folders (their *.json, recursively) or - for stdin.

    Games already stored are skipped and counted; a record's annotations are stored as the
    game's comments (those it has not yet); a bad file is reported with its error and
    skipped. Exits 1 if any file failed or the store stopped answering.
    """
    todo = list(sources(paths))
    tally = Tally()
    out = Console(highlight=False, soft_wrap=True)
    progress = progress_bar("importing", transient=True)
    store_error: Exception | None = None
    try:
        library = open_library(using_store())
    except PersistenceError as exc:
        raise click.ClickException(f"the store does not answer: {exc}") from exc
    checking = closing(checked_records(todo, min(jobs, len(todo)), scheduler_of(scheduler)))
    with library, progress, checking as checked:
        task = progress.add_task("importing", total=len(todo))
        for done, (source, game) in enumerate(checked):
            if isinstance(game, dict):  # report it and go on
                tally.failed.append(source.label)
                out.print(f"{escape(source.label)}: {escape(json.dumps(game))}")
            else:
                try:
                    created = store_checked(library, game)
                except (TooManyComments, WithdrawnGame) as exc:  # comments it cannot take
                    tally.failed.append(source.label)
                    out.print(f"{escape(source.label)}: {escape(str(exc))}")
                    progress.advance(task)
                    continue
                except PersistenceError as exc:
                    store_error = exc
                    tally.not_attempted = len(todo) - done
                    break
                if created:
                    tally.imported += 1
                else:
                    tally.duplicates += 1
            progress.advance(task)
    if store_error is not None:
        out.print(f"stopped: the store failed: {escape(str(store_error))}")
    out.print(tally.summary(len(todo)))
    if tally.failed or store_error is not None:
        sys.exit(1)


@click.command("export")
@click.argument("game_id", metavar="GAME_ID")
@click.option(
    "--at", "step", type=click.IntRange(min=0), help="The position after the first N actions."
)
def export_game(game_id: str, step: int | None) -> None:
    """Print a stored game's record (with its comments as annotations), or its position
    after N actions, as canonical JSON. GAME_ID may be the first 8 or more hex digits of the
    id of one stored game."""
    with open_library(using_store()) as library:
        found = stored_game(library, game_id)
        try:
            if step is None:
                data = exported_record(library, found)
            else:
                data = canonical_json(library.position_at(found, step))
        except UnknownGame as exc:
            raise click.ClickException(str(exc)) from exc
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--at") from exc
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


@click.command("purge")
@click.argument("game_id", metavar="GAME_ID")
@click.option("--yes", is_flag=True, help="Do not ask before deleting.")
def purge_game(game_id: str, yes: bool) -> None:
    """Delete a withdrawn game from the store for good: its events, its comments, its what-if
    branches, the variations explored from it and its reviews. GAME_ID is the game's whole
    id; only a game its uploader withdrew (DELETE /api/games/GAME_ID) is purged."""
    try:
        found = UUID(game_id)
    except ValueError:
        raise click.BadParameter("give the game's whole id", param_hint="GAME_ID") from None
    settings = using_store()
    with open_library(settings) as library:
        try:
            if not library.withdrawn(found):
                raise click.ClickException(str(NotWithdrawn(found)))
        except UnknownGame as exc:
            raise click.ClickException(str(exc)) from exc
        if not yes:
            click.confirm(f"Delete game {found} and everything kept about it for good?",
                          abort=True)  # fmt: skip
        with open_read_models(settings) as models:  # the withdrawal projected before it goes
            models.catch_up(library)
        done = purge(library, found)
    reviews = Analyses(analyses_url(settings)).forget(found)
    click.echo(f"purged game {found}: {done.events} events in {done.streams} streams, "
               f"{reviews} reviews")  # fmt: skip
