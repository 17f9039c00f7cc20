"""The dashboard's static answers: cached for a year where their address names their version,
and gzip-coded for a browser that accepts it.

Dash names its component suites' scripts with their version and its ``assets/`` files with
their modification time (``?m=…``), and the plotly build's name carries its version
(:mod:`dashboard.plotly_bundle`), so a warm page load asks the server for none of them
again. Scripts and stylesheets are coded once per content (the set of static files is
finite) and the coded body is kept in memory.
"""

from __future__ import annotations

import gzip
import hashlib

from dash.fingerprint import check_fingerprint
from flask import Flask, request
from werkzeug.wrappers import Response

from dashboard.plotly_bundle import CACHED, PREFIX

CODED = frozenset({"text/javascript", "application/javascript", "text/css"})
"""The types coded: plotly.js, Dash's scripts and the stylesheets shrink to about a third."""
SMALLEST = 1_024
"""Bodies smaller than this are sent as they are."""
SUITES = "/_dash-component-suites/"
_coded: dict[bytes, bytes] = {}


def versioned(path: str, query: dict[str, str]) -> bool:
    """Whether a static address names its content's version.

    >>> versioned("/assets/howl.css", {"m": "1"}), versioned("/assets/howl.css", {})
    (True, False)
    >>> versioned(SUITES + "dash/dcc/async-graph.js", {})
    False
    >>> versioned(SUITES + "dash/dcc/dash_core_components.v4_4_1m1796168589.js", {})
    True
    """
    if path.startswith("/assets/"):
        return "m" in query
    if path.startswith(SUITES):
        return bool(check_fingerprint(path)[1])
    return path.startswith(PREFIX)


def gzipped(body: bytes) -> bytes:
    """``body`` gzip-coded, once per content."""
    key = hashlib.blake2b(body, digest_size=16).digest()
    coded = _coded.get(key)
    if coded is None:
        coded = _coded[key] = gzip.compress(body, compresslevel=6, mtime=0)
    return coded


def finish(response: Response) -> Response:
    """A static answer (``after_request``) cached when versioned, coded when it may be."""
    path = request.path
    static = path.startswith(("/assets/", SUITES, PREFIX))
    if not static or request.method != "GET" or response.status_code != 200:
        return response
    if versioned(path, request.args.to_dict()):
        response.headers["Cache-Control"] = CACHED
    if response.mimetype not in CODED or not request.accept_encodings["gzip"]:
        return response
    response.direct_passthrough = False  # a file sent: read it to code it
    body = response.get_data()
    if len(body) < SMALLEST:
        return response
    response.set_data(gzipped(body))
    response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    return response


def install(server: Flask) -> None:
    """Have ``server`` finish the dashboard's static answers."""
    server.after_request(finish)
