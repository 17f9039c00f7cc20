"""Holding the background reviews back while the server is busy.

The review process of ``howl serve`` runs in Linux's idle scheduling class, yet under a
club night's load its processes still took a third to a half of a CPU (the serving
pipeline hands each request between threads and processes, and a review fills every gap),
and the uploads answered a fifth slower. So the review process watches the CPU time its
server's other processes spend (:class:`ServingLoad`); while they are busy, it stops the
processes its review runs in (``SIGSTOP``), and lets them go on (``SIGCONT``) once the
server has been quiet for a few moments (:class:`HoldBack`).
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterable
from pathlib import Path

TICK_SECONDS = 0.1
"""How often the review process looks at the server's load."""
BUSY_SHARE = 0.2
"""The share of one CPU the server's processes use, over a tick, past which it is busy."""
QUIET_TICKS = 3
"""Ticks the server must be quiet for before the reviews go on."""
REFRESH_TICKS = 10
"""Ticks between two readings of which processes the server has (they come and go)."""
_HZ = os.sysconf("SC_CLK_TCK")


def parents() -> dict[int, int]:
    """Every process's parent, by process id."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            found[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    return found


def descendants(root: int, parents: dict[int, int], pruned: int) -> set[int]:
    """The processes under ``root`` (by ``parents``), but none under ``pruned`` or itself.

    >>> sorted(descendants(1, {2: 1, 3: 2, 4: 1, 5: 4}, pruned=4))
    [2, 3]
    """
    found: set[int] = set()
    grown = {root}
    while grown:
        grown = {p for p, parent in parents.items() if parent in grown and p != pruned} - found
        found |= grown
    return found


def cpu_seconds(pid: int) -> float:
    """The CPU time process ``pid`` (all its threads) has used; 0 when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / _HZ


class ServingLoad:
    """How busy the server ``server`` is: the CPU its processes use (those under it, but
    none under ``own``: the review process and its children)."""

    def __init__(self, server: int, own: int) -> None:
        self.server = server
        self.own = own
        self._pids: set[int] = set()
        self._used: dict[int, float] = {}
        self._ticks = 0

    def busy(self, seconds: float) -> bool:
        """Whether the server used more than :data:`BUSY_SHARE` of a CPU over the last
        ``seconds`` (since the last call)."""
        if self._ticks % REFRESH_TICKS == 0:
            self._pids = descendants(self.server, parents(), self.own) | {self.server}
        self._ticks += 1
        used = {pid: cpu_seconds(pid) for pid in self._pids}
        spent = sum(max(0.0, t - self._used.get(pid, t)) for pid, t in used.items())
        self._used = used
        return spent > BUSY_SHARE * seconds


class HoldBack:
    """Stops the processes ``children()`` answers while ``busy()`` says so and goes on with
    them after :data:`QUIET_TICKS` quiet ticks (call :meth:`tick` every tick)."""

    def __init__(self, busy: Callable[[], bool], children: Callable[[], Iterable[int]]) -> None:
        self.busy = busy
        self.children = children
        self.held = False
        self._quiet = 0

    def tick(self) -> None:
        """Look at the load once, and stop or continue the children."""
        if self.busy():
            self._quiet = 0
            self.held = True
            self._send(signal.SIGSTOP)  # a review started meanwhile is held too
        elif self.held:
            self._quiet += 1
            if self._quiet >= QUIET_TICKS:
                self.release()

    def release(self) -> None:
        """Let the children go on."""
        self.held = False
        self._send(signal.SIGCONT)

    def _send(self, sig: signal.Signals) -> None:
        for pid in self.children():
            try:
                os.kill(pid, sig)
            except ProcessLookupError:  # it ended meanwhile
                continue
