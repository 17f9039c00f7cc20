"""Run benchmark suites by name: ``scripts/bench engine store``; options after the names go
to the one suite named (``scripts/bench mixed --duration 5``)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

SUITES = (
    "engine", "store", "projections", "api", "dashboard", "analysis", "robustness", "tables",
    "explore", "bots", "mixed", "scale", "ratings", "coaching",
)  # fmt: skip
HERE = Path(__file__).resolve().parent
# The project's packages (and tests' helpers) win over suites named like them.
sys.path.insert(0, str(HERE.parents[1]))


def load(name: str) -> ModuleType | None:
    """The suite ``name`` (``<name>.py`` here, as module ``bench_<name>``), or None."""
    path = HERE / f"{name}.py"
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location(f"bench_{name}", path)
    assert spec is not None and spec.loader is not None
    suite = sys.modules[spec.name] = importlib.util.module_from_spec(spec)  # picklable
    spec.loader.exec_module(suite)
    return suite


def main(argv: list[str]) -> int:
    """Run the named suites (all available ones when none is named)."""
    first = next((i for i, a in enumerate(argv) if a.startswith("-")), len(argv))
    names, options = argv[:first], argv[first:]
    if options and len(names) != 1:
        print("options go to one suite: name it alone", file=sys.stderr)
        return 2
    unknown = [n for n in names if n not in SUITES]
    if unknown:
        print(
            f"unknown suite(s) {', '.join(unknown)}; choose from {', '.join(SUITES)}",
            file=sys.stderr,
        )
        return 2
    for name in names or SUITES:
        suite = load(name)
        if suite is None:
            print(f"… {name}: no benchmarks yet", file=sys.stderr)
            continue
        if options:
            suite.run(options)
        else:
            suite.run()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
