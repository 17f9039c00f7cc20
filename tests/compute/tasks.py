"""Tasks for the pools under test: each takes a known time and says where it ran."""

from __future__ import annotations

import os
import time
from pathlib import Path


def nap(index: int, seconds: float, log: str | None = None) -> tuple[int, int, float]:
    """Sleep ``seconds``; ``(index, this process's id, when it woke)``. With ``log`` the
    line ``index pid`` is first appended to that file, so that a task that was started and
    lost is seen."""
    if log is not None:
        with Path(log).open("a") as out:
            out.write(f"{index} {os.getpid()}\n")
    time.sleep(seconds)
    return index, os.getpid(), time.monotonic()
