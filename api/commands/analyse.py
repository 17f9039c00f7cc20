"""``howl analyse GAME_ID|FILE``: review a game — who was winning, where it turned, what cost most.

A stored game (its id) is reviewed and the result saved in the ``analyses`` table, where
the API serves it; a record file is reviewed and only printed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from uuid import UUID

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from api.commands.records import checked
from domain import games
from domain.replays import RecordError
from domain.ruleset import GameRecord, InvalidRecord, Review, ReviewResult, Ruleset
from projections.analysis import default_settings

CLASS_STYLE = {"blunder": "bold red", "mistake": "red", "inaccuracy": "yellow"}


def _names_a_game(text: str) -> bool:
    """Whether ``text`` is a game id or the first 8 or more hex digits of one."""
    from services.library import id_prefix

    try:
        UUID(text)
    except ValueError:
        return id_prefix(text) is not None
    return True


DEFAULTS: Any = default_settings()
"""The review settings asked for when the options do not say."""


def _reviewed(rules: Ruleset, record: GameRecord) -> tuple[Review, GameRecord]:
    """The game's review and ``record``; refused for a game whose ruleset has no review."""
    if rules.review is None:
        raise click.ClickException(f"no review for this game yet: {rules.title} has none")
    return rules.review, record


def _load(target: str) -> tuple[Review, GameRecord, UUID | None]:
    """The game's review, the record to review and, for a stored game, its id. A record that
    is not well formed or breaks a rule exits 1 with its error JSON, as ``howl validate``."""
    if not _names_a_game(target) or Path(target).exists():
        try:
            data = Path(target).read_bytes()
        except OSError as exc:
            raise click.BadParameter(f"not a game id nor a readable file: {exc}") from exc
        rules, record, _ = checked(data)
        return *_reviewed(rules, record), None
    from api.commands.configured import stored_game, using_store
    from domain.store import UnknownGame
    from services.library import open_library

    with open_library(using_store()) as library:
        game_id = stored_game(library, target)
        try:
            return *_reviewed(*games.read_record(library.record(game_id))), game_id
        except (UnknownGame, InvalidRecord) as exc:
            raise click.ClickException(str(exc)) from exc


def _pct(p: float) -> str:
    return f"{100 * p:.0f}%"


def print_review(result: ReviewResult, doc: dict[str, Any], console: Console) -> None:
    """Seats' accuracy, the costly actions with their better alternatives, turning points."""
    seats = Table(title="Accuracy")
    for column in ("seat", "accuracy", "mean loss", "inaccuracies", "mistakes", "blunders"):
        seats.add_column(column, justify="left" if column == "seat" else "right")
    for s in doc["seats"]:
        seats.add_row(
            s["name"], "–" if s["accuracy"] is None else f"{s['accuracy']:.1f}",
            "–" if s["mean_loss"] is None else _pct(s["mean_loss"]),
            str(s["inaccuracies"]), str(s["mistakes"]), str(s["blunders"]),
        )  # fmt: skip
    console.print(seats)
    costly = Table(title="Costly actions")
    for column in ("step", "class", "action", "win", "better"):
        costly.add_column(column)
    for s in doc["steps"]:
        if s["classification"] is None:
            continue
        better = s["best"]["label"] if s["best"] else ""
        costly.add_row(
            str(s["step"]),
            f"[{CLASS_STYLE[s['classification']]}]{s['classification']}[/]",
            s["label"], f"{_pct(s['win_before'])} → {_pct(s['win_after'])}", better,
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
@click.argument("target", metavar="GAME_ID|FILE")
@click.option("--playouts", default=DEFAULTS.playouts, show_default=True,
              type=click.IntRange(1, 1000), help="Playouts per scored action.")  # fmt: skip
@click.option("--candidates", default=DEFAULTS.candidates, show_default=True,
              type=click.IntRange(0, 50), help="Alternatives scored per action.")  # fmt: skip
@click.option("--rounds", default=DEFAULTS.rounds, show_default=True,
              type=click.IntRange(1, 10), help="Playout horizon in rounds.")  # fmt: skip
@click.option("--seed", default=DEFAULTS.seed, show_default=True, type=int)
@click.option("--workers", type=click.IntRange(1, 64), help="Processes (default: one per CPU).")
@click.option("--json", "as_json", is_flag=True, help="Print the review as JSON.")
def analyse(
    target: str, playouts: int, candidates: int, rounds: int, seed: int, workers: int | None,
    as_json: bool,
) -> None:  # fmt: skip
    """Review a stored game (GAME_ID, or its first 8 or more hex digits; saved for the API) or
    a record FILE (printed only)."""
    review, record, game_id = _load(target)
    settings = review.settings(playouts=playouts, candidates=candidates, rounds=rounds, seed=seed)
    console = Console(stderr=True)
    columns = (TextColumn("analysing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=as_json) as bar:
        task = bar.add_task("steps", total=len(record.actions))
        try:
            result = review.review(
                record, settings, lambda done, total: bar.update(task, completed=done), workers
            )
        except RecordError as exc:
            raise click.ClickException(f"illegal record: {exc}") from exc
    doc = result.to_json()
    if game_id is not None:
        from projections.analysis import Analyses
        from services.config import Settings as AppSettings
        from services.library import analyses_url

        Analyses(analyses_url(AppSettings.from_env())).save(game_id, settings, doc)
        console.print(f"saved as analysis {settings.key} of game {game_id}")
    if as_json:
        click.echo(json.dumps(doc, separators=(",", ":")))
    else:
        print_review(result, doc, Console())
