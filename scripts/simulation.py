"""The acceptance simulation of W-12's guarantee that every game ends.

``howl simulate`` over 2–5 players with both player kinds and every combination of the
options (``big_map`` on two players, with and without ``auto_push``; ``random_terrain``;
``lone_wolves_per_region=3``; ``stall_limit_rounds=10``), the games split evenly over the
runs. Every record written is replayed by the engine: the script prints each run's figures
and the longest game in actions and rounds, and exits 1 if any game did not finish.
"""

from __future__ import annotations

import argparse
import itertools
import shutil
import subprocess
import sys
from pathlib import Path

from domain.wolves.events import TurnEnded
from domain.wolves.records import read_record
from domain.wolves.replay import replay

ROOT = Path(__file__).resolve().parent.parent
HOWL = ROOT / ".venv" / "bin" / "howl"


def option_sets() -> list[tuple[str, list[str]]]:
    """(player counts, options) of every run: each combination, the big map on two players."""
    runs = []
    for big, terrain, lone, push, stall in itertools.product((False, True), repeat=5):
        options = [
            name for name, on in (
                ("big_map", big), ("random_terrain", terrain), ("lone_wolves_per_region=3", lone),
                ("auto_push", push), ("stall_limit_rounds=10", stall),
            ) if on
        ]  # fmt: skip
        runs.append(("2" if big else "2..5", options))
    return runs


def rounds_of(events: list[list[object]]) -> int:
    """Rounds played after the draft: one more than the turns handed back to seat 0."""
    return 1 + sum(isinstance(e, TurnEnded) and e.next_player == 0 for s in events for e in s)


def main() -> int:
    """Run every combination, replay what it wrote, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--out", type=Path, default=ROOT / "var" / "simulation")
    args = parser.parse_args()
    runs = [(kind, *run) for kind in ("heuristic", "random") for run in option_sets()]
    total = unfinished = 0
    longest: tuple[int, str] = (0, "")
    most_rounds: tuple[int, str] = (0, "")
    for i, (kind, players, options) in enumerate(runs):
        games = args.games // len(runs) + (i < args.games % len(runs))
        name = f"{kind}-{players.replace('..', '-')}p-{'-'.join(options) or 'standard'}"
        out = args.out / name
        shutil.rmtree(out, ignore_errors=True)
        command = [
            str(HOWL), "simulate", "--players", players, "--games", str(games),
            "--seed", str(args.seed + i), "--player", kind, "--out", str(out),
        ] + (["--options", ",".join(options)] if options else [])  # fmt: skip
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        figures = []
        for path in sorted(out.glob("*.json")):
            result = replay(read_record(path.read_bytes()))
            actions, rounds = len(result.steps), rounds_of(result.steps)
            total += 1
            unfinished += not result.state.finished
            longest = max(longest, (actions, path.name))
            most_rounds = max(most_rounds, (rounds, path.name))
            figures.append((actions, rounds))
        print(
            f"{name}: {len(figures)} games, longest {max(a for a, _ in figures)} actions, "
            f"most rounds {max(r for _, r in figures)}"
        )
    print(f"{total} games, {total - unfinished} finished, {unfinished} unfinished")
    print(f"longest game: {longest[0]} actions ({longest[1]})")
    print(f"most rounds: {most_rounds[0]} ({most_rounds[1]})")
    return 1 if unfinished else 0


if __name__ == "__main__":
    sys.exit(main())
