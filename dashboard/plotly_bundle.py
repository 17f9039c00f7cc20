"""The plotly.js build the dashboard's charts draw with.

Dash's ``dcc.Graph`` loads plotly's whole bundle (4.8 MB, most of a page's first load spent
parsing it) unless ``window.Plotly`` is already defined. The dashboard instead serves the
partial build pinned in ``pyproject.toml`` (``[tool.howl] plotly-bundle``: scatter, bar,
heatmap and the other cartesian traces, under a third of the size), which ``scripts/venv.sh``
puts in ``dashboard/vendor/``, under its versioned name with a year's caching. Every page
names it in its head (``<meta name="howl-plotly">``) and ``assets/plotly-build.js`` has Dash's
charts wait for it instead of loading their own: it is fetched when the first chart mounts
and run once a chart is in view or half a second later, so that a page draws what needs
no plotly (the replay's map, its pieces and step controls) and answers keys before plotly
is parsed. Where it was not fetched, Dash's whole bundle is used, as before.
"""

from __future__ import annotations

from pathlib import Path

from dash import Dash
from flask import Response, send_file

VENDOR = Path(__file__).with_name("vendor")
PREFIX = "/_howl/vendor/"
CACHED = "public, max-age=31536000, immutable"
"""Cache-Control of the bundle: its name carries its version."""


def bundle() -> Path | None:
    """The fetched build (``vendor/<package>-<version>.min.js``), or None."""
    found = sorted(VENDOR.glob("*.min.js"))
    return found[-1] if found else None


def install(app: Dash) -> None:
    """Serve the fetched build (if any) and name it in every page's head."""
    path = bundle()
    if path is None:
        return
    url = PREFIX + path.name

    def serve() -> Response:
        response = send_file(path, mimetype="text/javascript", conditional=True)
        response.headers["Cache-Control"] = CACHED
        return response

    app.server.add_url_rule(url, "plotly_bundle", serve)
    tag = f'<meta name="howl-plotly" content="{url}">'
    app.index_string = app.index_string.replace("{%css%}", "{%css%}\n        " + tag, 1)
