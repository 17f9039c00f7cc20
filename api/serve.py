"""``howl serve``: run the API and dashboard with granian, or Flask's dev server."""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import time
from dataclasses import replace
from functools import partial
from typing import NoReturn

import click
from granian import Granian
from granian.constants import Interfaces, Loops, TaskImpl

from api.app import create_app
from api.commands.configured import using_store
from api.demo import seed_demo
from api.front import front_app
from api.holdback import TICK_SECONDS, HoldBack, ServingLoad
from projections import db
from services.config import Settings
from services.shared import runs_analysis, start_reviews

STOP_SECONDS = 30
"""How long a worker may take to finish its requests when stopping before it is killed."""
RESPAWN_SECONDS = 0.5
"""Pause between replacing workers when granian respawns them on purpose (a crashed worker
is replaced at once)."""
ANALYSIS_NICENESS = 19
"""How much lower the reviews' CPU priority is than the API's where the idle scheduling
class is not offered."""


def _log_to_stderr() -> None:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")


def run_analysis(settings: Settings) -> None:
    """Review queued games (``HOWL_ANALYSIS``) on the CPU time the API leaves idle, until
    terminated or the server is gone: the review's processes are held back while the server
    is busy (:mod:`api.holdback`; on local processes, not on a Dask cluster)."""
    _log_to_stderr()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C stops the server, which stops us
    signal.signal(signal.SIGTERM, lambda *_: _stop_reviewing())
    background()
    start_reviews(settings)
    server = os.getppid()
    hold = HoldBack(partial(ServingLoad(server, os.getpid()).busy, TICK_SECONDS), _reviewers)
    local = settings.dask_scheduler is None  # a cluster's processes are not ours to stop
    while os.getppid() == server:
        time.sleep(TICK_SECONDS)
        if local:
            hold.tick()
    _stop_reviewing()


def _reviewers() -> list[int]:
    """The processes this process started (those its review runs in)."""
    return [p.pid for p in multiprocessing.active_children() if p.pid is not None]


def background() -> None:
    """Run this process, and the processes it starts, only on CPU time nothing else wants:
    Linux's idle scheduling class (a review under a club night's load waits for it to
    pass, rather than slow every answer down), else the lowest priority."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        os.nice(ANALYSIS_NICENESS)


def _stop_reviewing() -> NoReturn:
    """Exit at once, with the processes of the review in progress (whose heartbeat then goes
    stale, so that it is taken up again later)."""
    for child in multiprocessing.active_children():
        child.kill()
    os._exit(0)


def serve_production(settings: Settings) -> None:
    """Serve the app of ``settings`` with granian until SIGINT or SIGTERM.

    ``settings.workers`` processes share the listening socket, and a worker that dies is
    replaced. In each, granian's Rust runtime does the HTTP, the serving front
    (:mod:`api.front`) reads request bodies on the event loop and up to ``settings.threads``
    Python threads run the app, which each worker builds for itself. Reviews run in one more
    process (:func:`run_analysis`).
    """
    portable = replace(settings, api_tokens=dict(settings.api_tokens))  # picklable, if spawned
    analysis = None
    if runs_analysis(settings):
        analysis = multiprocessing.Process(target=run_analysis, args=(portable,), name="analysis")
        analysis.start()
    server = Granian(
        "howl",
        address=settings.host,
        port=settings.port,
        interface=Interfaces.RSGI,
        loop=Loops.uvloop,
        task_impl=TaskImpl.asyncio,
        workers=settings.workers,
        websockets=False,
        workers_kill_timeout=STOP_SECONDS,
        respawn_failed_workers=True,
        respawn_interval=RESPAWN_SECONDS,
    )
    try:
        # granian takes an RSGI app object (one with __rsgi__); its hint names only callables.
        loader = partial(front_app, portable)
        server.serve(target_loader=loader, wrap_loader=False)  # type: ignore[arg-type]
    finally:
        if analysis is not None:
            analysis.terminate()
            analysis.join()


@click.command()
@click.option("--host", help="Interface to listen on [default: HOWL_HOST or 127.0.0.1].")
@click.option("--port", type=int, help="Port to listen on [default: HOWL_PORT or 8050].")
@click.option("--dev", is_flag=True, help="Use Flask's development server with auto-reload.")
@click.option("--demo", is_flag=True, help="Seed demo games first if the store holds none.")
def serve(host: str | None, port: int | None, dev: bool, demo: bool) -> None:
    """Serve the API (under /api) and the dashboard (at /)."""
    _log_to_stderr()
    settings = using_store()
    settings = replace(
        settings,
        host=host if host is not None else settings.host,
        port=port if port is not None else settings.port,
    )
    db.backend_of(settings.database_url)  # fail fast on an unsupported URL
    restarted = os.environ.get("WERKZEUG_RUN_MAIN") == "true"  # --dev's reloaded child
    if demo and not restarted:
        seeded = seed_demo(settings)
        click.echo(f"Demo data: {seeded} game(s) seeded.")
    if not restarted:
        click.echo(f"Howl is serving at http://{settings.host}:{settings.port}/ (Ctrl+C stops)")
    if dev:
        create_app(settings).run(settings.host, settings.port, debug=True, use_reloader=True)
    else:
        serve_production(settings)
