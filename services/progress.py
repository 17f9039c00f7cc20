"""The progress bar of every long job: what it does, a bar, done of total, time taken."""

from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn


def progress_bar(what: str, console: Console | None = None, transient: bool = False) -> Progress:
    """A bar labelled ``what`` on ``console`` (default: standard error), gone when it ends if
    ``transient``."""
    return Progress(
        TextColumn(what), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=console or Console(stderr=True), transient=transient,
    )  # fmt: skip
