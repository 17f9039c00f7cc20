"""The latest answers of the read models kept per request (:class:`LatestAnswers`): given
again while the read models stand still, made anew once they move, or given lagging (and
made again in the background, at most so often) to a request that may lag, up to their age
limit."""

from __future__ import annotations

import threading
import time
from functools import partial

from services.bodies import LatestAnswers


class Store:
    """A read-model state and renders counted (each render says the state it saw)."""

    def __init__(self) -> None:
        self.state = 0
        self.renders = 0
        self.gate = threading.Event()
        self.gate.set()

    def render(self) -> bytes:
        self.gate.wait(5)
        self.renders += 1
        return f"at {self.state}".encode()


def test_kept_while_the_state_stands_and_made_anew_when_it_moves() -> None:
    store, answers = Store(), LatestAnswers()
    ask = partial(answers.get_or_render, "/s", lambda: store.state, store.render, False)
    assert ask() == ask() == b"at 0" and store.renders == 1
    store.state = 1
    assert ask() == b"at 1" and store.renders == 2


def test_a_request_that_may_lag_gets_the_last_answer_while_it_is_made_again() -> None:
    store, answers = Store(), LatestAnswers(stale=60, remake=0)
    lagging = partial(answers.get_or_render, "/s", lambda: store.state, store.render, True)
    assert lagging() == b"at 0"
    store.state, store.gate = 1, threading.Event()  # the next render waits
    assert lagging() == b"at 0" and lagging() == b"at 0"  # one remake under way, not two
    store.gate.set()
    deadline = time.monotonic() + 5
    while lagging() != b"at 1":
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert store.renders == 2


def test_an_answer_past_its_age_or_a_request_that_may_not_lag_is_made_at_once() -> None:
    store, answers = Store(), LatestAnswers(stale=0)
    assert answers.get_or_render("/s", lambda: store.state, store.render, True) == b"at 0"
    store.state = 1
    assert answers.get_or_render("/s", lambda: store.state, store.render, True) == b"at 1"
    store.state = 2
    fresh = LatestAnswers(stale=60)
    fresh.get_or_render("/s", lambda: 1, store.render, False)
    assert fresh.get_or_render("/s", lambda: store.state, store.render, False) == b"at 2"


def test_a_remake_that_fails_is_forgotten_and_the_next_request_makes_it() -> None:
    answers = LatestAnswers(stale=60, remake=0)
    answers.get_or_render("/s", lambda: 0, lambda: b"old", True)

    def fails() -> bytes:
        raise LookupError("gone")

    assert answers.get_or_render("/s", lambda: 1, fails, True) == b"old"
    deadline = time.monotonic() + 5
    while True:
        try:
            answers.get_or_render("/s", lambda: 1, fails, True)
        except LookupError:
            break
        assert time.monotonic() < deadline
        time.sleep(0.01)


def test_a_lagging_answer_is_made_again_only_once_it_is_old_enough() -> None:
    store, answers = Store(), LatestAnswers(stale=60, remake=1.0)
    lagging = partial(answers.get_or_render, "/s", lambda: store.state, store.render, True)
    assert lagging() == b"at 0"
    store.state = 1
    assert lagging() == b"at 0" and store.renders == 1  # too young to make again
    time.sleep(1.0)
    deadline = time.monotonic() + 5
    while lagging() != b"at 1":
        assert time.monotonic() < deadline
        time.sleep(0.01)
    store.state = 2
    assert lagging() == b"at 1" and store.renders == 2


def test_only_the_last_requests_are_kept() -> None:
    store, answers = Store(), LatestAnswers(requests=2)
    for key in ("/a", "/b", "/c", "/a"):
        answers.get_or_render(key, lambda: 0, store.render, False)
    assert store.renders == 4  # /a was dropped for /c, then made again
