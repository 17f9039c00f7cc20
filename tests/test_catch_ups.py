"""The catch-up thread of a process (``services.catchup``): one catch-up serves every ticket
asked for until it started, in its turn."""

from __future__ import annotations

import threading

from services.catchup import CatchUps


def test_one_catch_up_serves_the_tickets_asked_while_it_waited_for_its_turn() -> None:
    turn = threading.Lock()
    runs: list[int] = []
    catch_ups = CatchUps(lambda: runs.append(1), lambda: turn)
    with turn:  # another process's turn
        first = catch_ups.ask()
        second = catch_ups.ask()
        assert not catch_ups.wait(first, 0.2)
    assert catch_ups.wait(first, 10) and catch_ups.wait(second, 10)
    assert len(runs) == 1
    third = catch_ups.ask()
    assert catch_ups.wait(third, 10) and len(runs) == 2
    catch_ups.stop()


def test_a_catch_up_runs_after_every_ticket_asked_before_it() -> None:
    started = threading.Event()
    go_on = threading.Event()
    runs: list[int] = []

    def catch_up() -> None:
        runs.append(1)
        started.set()
        go_on.wait(10)

    catch_ups = CatchUps(catch_up)
    first = catch_ups.ask()
    assert started.wait(10)
    second = catch_ups.ask()  # asked while the first runs: the next one serves it
    go_on.set()
    assert catch_ups.wait(second, 10) and catch_ups.wait(first, 0)
    assert len(runs) == 2
    catch_ups.stop()
