"""``howl validate``, ``howl replay`` and ``howl score``: records.md's command-line contract,
for a record of any registered game (its ``"game"`` picks the ruleset).

Each reads a game record from FILE (``-`` for standard input). A record that is not well
formed or breaks a rule exits 1 with the error JSON (``invalid_record`` or
``illegal_action``) on standard output.
"""

from __future__ import annotations

import json
from typing import IO, Any, NoReturn

import click

from domain import games
from domain.replays import RecordError, Replay, replay
from domain.ruleset import GameRecord, InvalidRecord, Ruleset

FILE = click.argument("file", type=click.File("rb"))
AT = click.option(
    "--at", type=click.IntRange(min=0), help="Only the first N actions (default: all).", metavar="N"
)
JSON = click.option("--json", "as_json", is_flag=True, help="Print JSON (the scripting format).")


def _emit(doc: Any) -> None:
    """One JSON document on a line of standard output, UTF-8, keys in the documents' order."""
    click.echo(json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode())


def _fail(doc: dict[str, Any]) -> NoReturn:
    _emit(doc)
    raise SystemExit(1)


def checked(data: bytes) -> tuple[Ruleset, GameRecord, Replay]:
    """Read and replay a whole record; on an error print its JSON and exit 1."""
    try:
        rules, record = games.read_record(data)
        return rules, record, replay(rules, record)
    except (InvalidRecord, RecordError) as err:
        _fail(err.to_json())


def _state_at(record: GameRecord, result: Replay, at: int | None) -> Any:
    if at is None:
        return result.state
    if at > len(record.actions):
        raise click.BadParameter(f"the record has {len(record.actions)} actions", param_hint="--at")
    return result.state_at(at)


def summary(rules: Ruleset, record: GameRecord, state: Any) -> str:
    """``3 players, 187 actions, finished, winner Ana (61)``: seats, actions, whether it is
    over, and who leads (place 1) with the best total."""
    scores = rules.scores(state)
    best = max((s.total for s in scores), default=0)
    leaders = [record.players[s.seat].name for s in scores if s.place == 1]
    finished = rules.finished(state)
    who = ("winner" if finished else "leader") + ("s" if len(leaders) > 1 else "")
    return (
        f"{len(record.players)} players, {len(record.actions)} actions, "
        f"{'finished' if finished else 'in progress'}, {who} {', '.join(leaders)} ({best})"
    )


def score_lines(rules: Ruleset, record: GameRecord, state: Any) -> list[str]:
    """``1. Ana: 61 (regions 20, …)``: every seat by place, with its score's parts."""
    lines = []
    for s in sorted(rules.scores(state), key=lambda s: (s.place, s.seat)):
        parts = ", ".join(f"{name.replace('_', ' ')} {value}" for name, value in s.parts.items())
        line = f"{s.place}. {record.players[s.seat].name}: {s.total}"
        lines.append(f"{line} ({parts})" if parts else line)
    return lines


@click.command("validate")
@FILE
def validate_command(file: IO[bytes]) -> None:
    """Check a game record; print a one-line summary (exit 0) or the error JSON (exit 1)."""
    rules, record, result = checked(file.read())
    click.echo(f"ok: {summary(rules, record, result.state)}")


@click.command("replay")
@FILE
@AT
@JSON
def replay_command(file: IO[bytes], at: int | None, as_json: bool) -> None:
    """The position after the first N actions (default: the end of the record): what is
    going on and every seat's score, or the position's JSON."""
    rules, record, result = checked(file.read())
    state = _state_at(record, result, at)
    if as_json:
        _emit(rules.write_position(state))
        return
    step = len(record.actions) if at is None else at
    click.echo(f"after {step} of {len(record.actions)} actions: {rules.describe(state)}")
    click.echo(f"{'finished' if rules.finished(state) else 'in progress'}; the score now:")
    for line in score_lines(rules, record, state):
        click.echo(f"  {line}")


@click.command("score")
@FILE
@AT
@JSON
def score_command(file: IO[bytes], at: int | None, as_json: bool) -> None:
    """Final (or current) score per seat with its breakdown and place (the game's rules)."""
    rules, record, result = checked(file.read())
    state = _state_at(record, result, at)
    if as_json:
        _emit(rules.score_json(state))
        return
    for line in score_lines(rules, record, state):
        click.echo(line)
