"""``howl serve``: run the API and dashboard with waitress, or Flask's dev server."""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import sys
from dataclasses import replace

import click
import waitress
from flask import Flask

from api.app import create_app
from api.config import Settings
from api.demo import seed_demo


def serve_production(app: Flask, settings: Settings) -> None:
    """Serve ``app`` with waitress: ``settings.threads`` threads in each of ``settings.workers``
    processes, all accepting on one listening socket."""
    if settings.workers == 1:
        waitress.serve(app, host=settings.host, port=settings.port, threads=settings.threads)
        return
    listener = socket.create_server((settings.host, settings.port), backlog=1024)
    children = []
    for _ in range(settings.workers):
        pid = os.fork()
        if pid == 0:  # a worker: serve until terminated
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            waitress.serve(app, sockets=[listener], threads=settings.threads)
            os._exit(0)
        children.append(pid)
    listener.close()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # run the cleanup below
    try:
        for pid in children:
            os.waitpid(pid, 0)
    finally:
        for pid in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)


@click.command()
@click.option("--host", help="Interface to listen on [default: HOWL_HOST or 127.0.0.1].")
@click.option("--port", type=int, help="Port to listen on [default: HOWL_PORT or 8050].")
@click.option("--dev", is_flag=True, help="Use Flask's development server with auto-reload.")
@click.option("--demo", is_flag=True, help="Seed demo games first if the store holds none.")
def serve(host: str | None, port: int | None, dev: bool, demo: bool) -> None:
    """Serve the API (under /api) and the dashboard (at /)."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    settings = Settings.from_env()
    settings = replace(
        settings,
        host=host if host is not None else settings.host,
        port=port if port is not None else settings.port,
    )
    restarted = os.environ.get("WERKZEUG_RUN_MAIN") == "true"  # --dev's reloaded child
    if demo and not restarted:
        seeded = seed_demo(settings)
        click.echo(f"Demo data: {seeded} game(s) seeded.")
    app = create_app(settings)
    if not restarted:
        click.echo(f"Howl is serving at http://{settings.host}:{settings.port}/ (Ctrl+C stops)")
    if dev:
        app.run(settings.host, settings.port, debug=True, use_reloader=True)
    else:
        serve_production(app, settings)
