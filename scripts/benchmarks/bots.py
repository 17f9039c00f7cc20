"""Bots suite: how long a bot takes to choose its move at default strength, on this machine.

- ``bot_move_p95_ms`` (one line per bot and player count): the heuristic bot and the review
  bot at depth 1 choosing at every second position of the 2-, 3- and 4-player heuristic
  fixture games (draft, turns, bonus actions), in one process; ``p50`` beside it.
- ``bot_table_move_p95_ms``: the same review bot playing a 2-player table of bots on a
  SQLite store through the mover's own step (read the table, choose, enter the action
  against its version): what a person waits for after their action, the stream aside.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from pathlib import Path

from domain.games import ruleset
from domain.store import tables as store
from domain.wolves.players import make_bot
from scripts.benchmarks.common import percentile, progress, report
from services import bots
from services.config import Settings
from services.shared import Services

FIXTURES = Path(__file__).resolve().parents[2] / "tests/fixtures/the-wolves"
EVERY = 2
"""Every how many positions of a fixture game a bot is timed."""
KINDS = ("heuristic", "review")
TABLE_MOVES = 60


def _positions(players: int) -> list[object]:
    rules = ruleset("the-wolves")
    record = rules.read_record(json.loads((FIXTURES / f"{players}p-00-heuristic.json").read_text()))
    states = [rules.start(record)]
    for action in record.actions:
        states.append(rules.play(states[-1], action)[0])
    return [s for s in states[:-1:EVERY] if not rules.finished(s)]


def _table_moves() -> list[float]:
    """Seconds per bot move at a table of two review bots on a SQLite file."""
    with tempfile.TemporaryDirectory() as folder:
        svc = Services(Settings(f"sqlite:///{folder}/bench.sqlite3", analysis=False), False)
        try:
            record = json.loads((FIXTURES / "2p-00-heuristic.json").read_text())
            doc = {**record, "actions": [], "bots": {"0": "review", "1": "review"}}
            rules, read = bots.read_seated(doc)
            table = store.open_table(svc.library, rules, read, None).table_id  # no mover
            times = []
            for _ in range(TABLE_MOVES):
                start = time.perf_counter()
                if not bots.play_turn(svc, table):
                    break
                times.append(time.perf_counter() - start)
            return times
        finally:
            svc.close()


def run() -> None:
    """Measure and report the bots' metrics."""
    for players in (2, 3, 4):
        states = _positions(players)
        for kind in KINDS:
            progress(f"bots: {kind} bot, {players} players, {len(states)} positions")
            times = []
            for i, state in enumerate(states):
                bot = make_bot(kind, 1000 + i)
                start = time.perf_counter()
                bot.choose(state)  # type: ignore[arg-type]
                times.append(time.perf_counter() - start)
            ms = [t * 1000 for t in times]
            report(
                "bots", "bot_move_p95_ms", percentile(ms, 95), "ms", bot=kind, players=players,
                depth=1 if kind == "review" else None, p50=round(statistics.median(ms), 2),
                positions=len(ms),
            )  # fmt: skip
    progress(f"bots: {TABLE_MOVES} review-bot moves at a 2-player table on SQLite")
    ms = [t * 1000 for t in _table_moves()]
    report(
        "bots", "bot_table_move_p95_ms", percentile(ms, 95), "ms", bot="review", depth=1,
        players=2, p50=round(statistics.median(ms), 2), moves=len(ms), store="sqlite",
    )  # fmt: skip
