"""Run benchmark suites by name: ``scripts/bench engine store``."""

from __future__ import annotations

import importlib
import sys

SUITES = ("engine", "store", "projections", "api", "dashboard", "analysis")


def main(names: list[str]) -> int:
    """Run the named suites (all available ones when none is named)."""
    unknown = [n for n in names if n not in SUITES]
    if unknown:
        print(
            f"unknown suite(s) {', '.join(unknown)}; choose from {', '.join(SUITES)}",
            file=sys.stderr,
        )
        return 2
    for name in names or SUITES:
        try:
            suite = importlib.import_module(name)
        except ModuleNotFoundError as missing:
            if missing.name != name:
                raise
            print(f"… {name}: no benchmarks yet", file=sys.stderr)
            continue
        suite.run()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
