"""Ending a service's event streams waits out their store reads in progress."""

from __future__ import annotations

import threading
import time

from services.streams import Streams


def test_end_waits_for_a_read_in_progress_and_later_reads_are_refused() -> None:
    streams = Streams()
    era = streams.era()
    inside, release, ended = threading.Event(), threading.Event(), threading.Event()

    def stream() -> None:
        with streams.reading(era) as going:
            assert going
            inside.set()
            release.wait(5)

    def end() -> None:
        streams.end()
        ended.set()

    reader = threading.Thread(target=stream)
    reader.start()
    assert inside.wait(5)
    closer = threading.Thread(target=end)
    closer.start()
    time.sleep(0.2)
    assert not ended.is_set(), "end() returned while a stream was still reading"
    release.set()
    assert ended.wait(5)
    reader.join(5)
    closer.join(5)
    with streams.reading(era) as going:
        assert not going, "a stream of an ended era read again"
    with streams.reading(streams.era()) as going:
        assert going, "a stream started after the end may read"


def test_end_gives_up_waiting_after_its_timeout() -> None:
    streams = Streams()
    with streams.reading(streams.era()) as going:
        assert going
        started = time.monotonic()
        streams.end(timeout=0.1)
        assert 0.1 <= time.monotonic() - started < 2
