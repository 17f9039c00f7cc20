"""The review process holds its processes back while the server is busy (real processes: one
burning CPU, others sleeping, stopped and continued by signals)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from api.holdback import QUIET_TICKS, HoldBack, ServingLoad, cpu_seconds, descendants, parents

BURN = "import time\nwhile True:\n    time.time()\n"
SLEEP = "import time\ntime.sleep(120)\n"


@contextmanager
def process(code: str) -> Iterator[subprocess.Popen[bytes]]:
    """A Python child of this process running ``code`` (killed after)."""
    proc = subprocess.Popen([sys.executable, "-c", code])
    try:
        yield proc
    finally:
        proc.kill()
        proc.wait()


def state(pid: int) -> str:
    """Process ``pid``'s state letter (``T``: stopped)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def measured(load: ServingLoad, seconds: float = 0.3) -> bool:
    """Whether ``load`` is busy over ``seconds`` (after a first reading)."""
    load.busy(seconds)
    time.sleep(seconds)
    return load.busy(seconds)


SERVER = f"import subprocess, sys\nsubprocess.Popen([sys.executable, '-c', {BURN!r}])\n{SLEEP}"
"""A "server" whose child burns CPU."""


def child_of(pid: int) -> int:
    """The one child of process ``pid`` (waited for)."""
    assert _waits_for(lambda: bool(_children(pid)))
    (child,) = _children(pid)
    return child


def _children(pid: int) -> list[int]:
    return [c for c, parent in parents().items() if parent == pid]


def test_a_server_burning_cpu_is_busy_and_an_idle_one_is_not() -> None:
    with process(SLEEP) as sleeper:
        assert not measured(ServingLoad(sleeper.pid, own=-1))
    with process(SERVER) as server:
        burner = child_of(server.pid)
        try:
            load = ServingLoad(server.pid, own=-1)
            load.busy(1.0)
            start = cpu_seconds(burner)
            # on cores shared with a busy suite, wait until it has burnt 0.3 s, however long
            assert _waits_for(lambda: cpu_seconds(burner) - start >= 0.3, seconds=60.0)
            assert load.busy(1.0)  # 0.3 s of CPU over "a second": past a fifth of a CPU
        finally:
            os.kill(burner, signal.SIGKILL)
    assert cpu_seconds(2**22 + 1) == 0  # past the largest pid Linux gives


def test_the_reviews_own_cpu_is_not_the_servers() -> None:
    with process(SERVER) as server:
        burner = child_of(server.pid)
        try:
            assert not measured(ServingLoad(server.pid, own=burner))
        finally:
            os.kill(burner, signal.SIGKILL)
    assert descendants(1, {2: 1, 3: 2, 4: 1, 5: 4}, pruned=4) == {2, 3}


def test_children_are_stopped_while_busy_and_go_on_after_quiet_ticks() -> None:
    busy = [True]
    with process(SLEEP) as reviewer:
        hold = HoldBack(lambda: busy[0], lambda: [reviewer.pid])
        hold.tick()
        assert hold.held and _waits_for(lambda: state(reviewer.pid) == "T")
        busy[0] = False
        for _ in range(QUIET_TICKS - 1):
            hold.tick()
            assert state(reviewer.pid) == "T"
        hold.tick()
        assert not hold.held and _waits_for(lambda: state(reviewer.pid) != "T")
        busy[0] = True
        hold.tick()  # busy again: stopped again
        assert _waits_for(lambda: state(reviewer.pid) == "T")
        hold.release()
        assert _waits_for(lambda: state(reviewer.pid) != "T")


def test_a_child_gone_meanwhile_is_no_error() -> None:
    with process(SLEEP) as gone:
        pass
    hold = HoldBack(lambda: True, lambda: [gone.pid])
    hold.tick()
    hold.release()
    assert not hold.held


def _waits_for(check: Callable[[], bool], seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.02)
    return False
