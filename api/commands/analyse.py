"""``howl analyse GAME_ID|FILE``: review a game — who was winning, where it turned, what cost most.

A stored game (its id) is reviewed and the result saved in the ``analyses`` table, where
the API serves it; a record file is reviewed and only printed.
"""

from __future__ import annotations

import datetime as dt
import json
from concurrent.futures import CancelledError, Executor
from contextlib import ExitStack
from pathlib import Path
from typing import Any
from uuid import UUID

import click
from rich.console import Console
from rich.table import Table

from api.commands.configured import on_pool, scheduler_of, scheduler_option, using_store
from api.commands.records import checked
from domain import games
from domain.replays import RecordError
from domain.ruleset import (
    DEFAULT_DEPTH,
    DEPTHS,
    Depth,
    GameRecord,
    InvalidRecord,
    Review,
    ReviewResult,
    Ruleset,
)
from projections.analysis import Analyses, settings_values
from services.config import Settings as AppSettings
from services.library import analyses_url, review_settings
from services.progress import progress_bar

CLASS_STYLE = {"blunder": "bold red", "mistake": "red", "inaccuracy": "yellow"}


def _names_a_game(text: str) -> bool:
    """Whether ``text`` is a game id or the first 8 or more hex digits of one."""
    from services.library import id_prefix

    try:
        UUID(text)
    except ValueError:
        return id_prefix(text) is not None
    return True


def _settings_values(depth: Depth | None, explicit: dict[str, int | None]) -> dict[str, int]:
    """The settings asked for: ``depth``'s, or by default the server's (``HOWL_ANALYSIS_…``,
    so that a review saved here is the one the API serves), with the ``explicit`` values
    given in place of theirs."""
    base = review_settings(AppSettings.from_env(), depth)
    given = {name: value for name, value in explicit.items() if value is not None}
    return {**settings_values(base), **given}


def _review_of(rules: Ruleset) -> Review:
    """The game's review; refused for a game whose ruleset has no review."""
    if rules.review is None:
        raise click.ClickException(f"no review for this game yet: {rules.title} has none")
    return rules.review


def _load(target: str) -> tuple[Review, GameRecord, UUID | None]:
    """The game's review, the record to review and, for a stored game, its id. A record that
    is not well formed or breaks a rule exits 1 with its error JSON, as ``howl validate``."""
    if not _names_a_game(target) or Path(target).exists():
        try:
            data = Path(target).read_bytes()
        except OSError as exc:
            raise click.BadParameter(f"not a game id nor a readable file: {exc}") from exc
        rules, record, _ = checked(data)
        return _review_of(rules), record, None
    from api.commands.configured import stored_game
    from domain.store import UnknownGame
    from services.library import open_library

    with open_library(using_store()) as library:
        game_id = stored_game(library, target)
        try:
            rules, record = games.read_record(library.record(game_id))
            return _review_of(rules), record, game_id
        except (UnknownGame, InvalidRecord) as exc:
            raise click.ClickException(str(exc)) from exc


def _pct(p: float) -> str:
    return f"{100 * p:.0f}%"


def _accuracy(a: float | None) -> str:
    return "–" if a is None else f"{a:.1f}"


def print_review(result: ReviewResult, doc: dict[str, Any], console: Console) -> None:
    """Seats' accuracy, the costly actions with their better alternatives, turning points."""
    seats = Table(title="Accuracy", caption="?! inaccuracies, ? mistakes, ?? blunders")
    named = [part["stage"] for part in doc["seats"][0].get("stages", ())] if doc["seats"] else []
    columns = ("seat", "accuracy", *named, "mean loss", "?!", "?", "??")
    for column in columns:
        seats.add_column(column, justify="left" if column == "seat" else "right")
    for s in doc["seats"]:
        stages = {part["stage"]: part["accuracy"] for part in s.get("stages", ())}
        seats.add_row(
            s["name"], _accuracy(s["accuracy"]), *(_accuracy(stages.get(p)) for p in named),
            "–" if s["mean_loss"] is None else _pct(s["mean_loss"]),
            str(s["inaccuracies"]), str(s["mistakes"]), str(s["blunders"]),
        )  # fmt: skip
    console.print(seats)
    costly = Table(title="Costly actions")
    for column in ("step", "class", "sure", "action", "win", "better"):
        costly.add_column(column)
    for s in doc["steps"]:
        if s["classification"] is None:
            continue
        better = s["best"]["label"] if s["best"] else ""
        costly.add_row(
            str(s["step"]),
            f"[{CLASS_STYLE[s['classification']]}]{s['classification']}[/]", s["confidence"],
            s["label"], f"{_pct(s['win_before'])} → {_pct(s['win_after'])} "
            f"(± {_pct(s['loss_se'])})", better,
        )  # fmt: skip
    console.print(costly)
    labels = {s["step"]: s["label"] for s in doc["steps"]}
    for t in doc["turning_points"]:
        gainer, loser = result.players[t["gainer"]], result.players[t["loser"]]
        console.print(
            f"turning point at step {t['step']} ({labels[t['step']]}): "
            f"{gainer} +{_pct(t['change'][t['gainer']])}, {loser} {_pct(t['change'][t['loser']])}"
        )


@click.command("analyse")
@click.argument("target", metavar="[GAME_ID|FILE]", required=False)
@click.option("--all", "every", is_flag=True,
              help="Review every stored game not yet reviewed at these settings.")  # fmt: skip
@click.option("--game", "game_name",
              help="With --all: only games of this game, by its record's name.")  # fmt: skip
@click.option("--since", type=click.DateTime(["%Y-%m-%d"]), metavar="YYYY-MM-DD",
              help="With --all: only games played (or uploaded) on or after this day.")  # fmt: skip
@click.option("--depth", type=click.Choice(DEPTHS),
              help="quick, standard or deep [default: the server's, HOWL_ANALYSIS_DEPTH, "
                   f"or {DEFAULT_DEPTH}].")  # fmt: skip
@click.option("--playouts", type=click.IntRange(1, 1000),
              help="Playouts per scored action [default: the depth's].")  # fmt: skip
@click.option("--candidates", type=click.IntRange(0, 50),
              help="Alternatives scored per action [default: the depth's].")  # fmt: skip
@click.option("--rounds", type=click.IntRange(0, 10),
              help="Playout horizon in rounds, 0: to the end [default: the depth's].")  # fmt: skip
@click.option("--seed", type=int, help="[default: the depth's, 0]")
@click.option("--workers", type=click.IntRange(1, 64),
              help="Local processes or a local cluster's workers [default: CPUs].")  # fmt: skip
@scheduler_option
@click.option("--json", "as_json", is_flag=True, help="Print the review as JSON.")
def analyse(
    target: str | None, every: bool, game_name: str | None, since: dt.datetime | None,
    depth: Depth | None, playouts: int | None, candidates: int | None, rounds: int | None,
    seed: int | None, workers: int | None, scheduler: str | None, as_json: bool,
) -> None:  # fmt: skip
    """Review a stored game (GAME_ID, or its first 8 or more hex digits; saved for the API),
    a record FILE (printed only), or with --all every stored game not yet reviewed."""
    values = _settings_values(depth, {
        "playouts": playouts, "candidates": candidates, "rounds": rounds, "seed": seed,
    })  # fmt: skip
    if every:
        if target is not None or as_json:
            raise click.UsageError("--all reviews the stored games: give no GAME_ID|FILE, --json")
        analyse_all(values, game_name, since.date() if since else None, workers, scheduler)
        return
    if target is None:
        raise click.UsageError("give a GAME_ID|FILE, or --all")
    if game_name is not None or since is not None:
        raise click.UsageError("--game and --since go with --all")
    review, record, game_id = _load(target)
    settings = review.settings(**values)
    console = Console(stderr=True)
    with ExitStack() as stack:
        shared: int | Executor | None = workers
        cluster = None
        if scheduler := scheduler_of(scheduler):
            cluster = stack.enter_context(on_pool(workers, scheduler))
            shared = cluster.executor
        bar = stack.enter_context(progress_bar("analysing", console, transient=as_json))
        task = bar.add_task("steps", total=len(record.actions))
        try:
            result = review.review(
                record, settings, lambda done, total: bar.update(task, completed=done), shared
            )
        except RecordError as exc:
            raise click.ClickException(f"illegal record: {exc}") from exc
        except (CancelledError, OSError) as exc:
            if cluster is None or not (isinstance(exc, CancelledError) or cluster.lost()):
                raise
            raise click.ClickException(
                f"lost the Dask cluster at {cluster.scheduler}: nothing was saved"
            ) from None
    doc = result.to_json()
    if game_id is not None:
        Analyses(analyses_url(AppSettings.from_env())).save(game_id, settings, doc)
        console.print(f"saved as analysis {settings.key} of game {game_id}")
    if as_json:
        click.echo(json.dumps(doc, separators=(",", ":")))
    else:
        print_review(result, doc, Console())


def analyse_all(
    values: dict[str, int], game: str | None, since: dt.date | None, workers: int | None,
    scheduler: str | None,
) -> None:  # fmt: skip
    """Review every stored game due (:func:`services.reviews.due`), one task per game, and
    save each review as it comes back; a game whose review fails is reported and left
    out. Exits 1 when one failed."""
    if game is not None:
        try:
            rules = games.ruleset(game)
        except InvalidRecord as exc:
            raise click.BadParameter(exc.message, param_hint="--game") from None
        _review_of(rules)
    from services.library import open_library
    from services.reviews import due, review_due

    settings = using_store()
    analyses = Analyses(analyses_url(settings))
    console = Console(stderr=True)
    failed = 0
    with open_library(settings) as library:
        todo = list(due(library, analyses, values, game, since))
        if not todo:
            click.echo("no stored game is due for a review at these settings")
            return
        with on_pool(workers, scheduler) as ready, progress_bar("reviewing", console) as bar:
            task = bar.add_task("games", total=len(todo))
            jobs = ((d, library.record(d.game_id)) for d in todo)
            for (d, _), done in ready.finished(review_due, jobs):
                try:
                    doc = done.result()
                except Exception as exc:  # failed on every try: said, not stored
                    failed += 1
                    console.print(f"game {d.game_id}: review failed: {type(exc).__name__}: {exc}")
                else:
                    analyses.save(d.game_id, d.settings, doc)
                bar.advance(task)
    reviewed = len(todo) - failed
    click.echo(f"reviewed {reviewed} game{'' if reviewed == 1 else 's'}, failed {failed}")
    if failed:
        raise SystemExit(1)
