"""Write the fixture corpus: 10 complete games per player count, some with digital options.

Each ``<name>.json`` record gets a ``<name>.expected.json`` with what the engine said when
the corpus was made: the rules version, the number of actions and events, and the final
scores (the ``howl score --json`` shape). ``tests/test_fixtures.py`` replays every record
and compares, so a change in engine behaviour shows up as a failing fixture.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

from rich.progress import track

from api.commands.simulate import simulate_one
from domain.wolves.components import RULES_VERSION
from domain.wolves.records import read_record
from domain.wolves.replay import replay
from domain.wolves.scoring import final_scores
from domain.wolves.setup import Options

OUT = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "the-wolves"

# (name, players, player kind, options): 10 games per player count.
VARIANTS: list[tuple[str, str, Options]] = [
    *[("heuristic", "heuristic", Options())] * 6,
    ("random", "random", Options()),
    ("random-terrain", "heuristic", Options(random_terrain=True)),
    ("three-lone-wolves", "heuristic", Options(lone_wolves_per_region=3)),
    ("auto-push-stall-10", "heuristic", Options(auto_push=True, stall_limit_rounds=10)),
]


def expected(data: bytes) -> dict[str, object]:
    """What the engine says about a record: the contents of its ``.expected.json``."""
    result = replay(read_record(data))
    return {
        "rules": RULES_VERSION,
        "actions": len(result.steps),
        "events": sum(len(events) for events in result.steps),
        "finished": result.state.finished,
        "scores": [dataclasses.asdict(s) for s in final_scores(result.state)],
    }


def main() -> int:
    """Write every fixture record and its expected result."""
    OUT.mkdir(parents=True, exist_ok=True)
    jobs = []
    for players in (2, 3, 4, 5):
        for i, (name, kind, options) in enumerate(VARIANTS):
            if players == 2 and name == "three-lone-wolves":
                name, options = "big-map", Options(big_map=True)
            jobs.append((f"{players}p-{i:02d}-{name}", players, kind, options, 2026 + 10 * i))
    for stem, players, kind, options, seed in track(jobs, description="fixtures"):
        data, _ = simulate_one(0, players, seed, kind, dataclasses.asdict(options))
        (OUT / f"{stem}.json").write_bytes(data)
        (OUT / f"{stem}.expected.json").write_text(json.dumps(expected(data), indent=1) + "\n")
    print(f"wrote {len(jobs)} fixture games to {OUT.name}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
