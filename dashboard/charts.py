"""Plotly figures of one game's timeline, for every game: the seats' scores, their margin
and their win probability, with the milestones a board view marks.

All share the x axis (steps) and margins, so they line up; the browser draws the
current step's cursor over them (``assets/replay.js``), so they are drawn only once.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from dash import dcc

GRAPH_CONFIG: dcc.Graph.Config = {"displayModeBar": False, "responsive": True, "scrollZoom": False}
MARGIN = {"l": 86, "r": 12, "t": 26, "b": 34}
DASHES = ("dot", "dash", "solid")
"""The lines of a chart's marks, in their order (The Wolves: its three phases)."""
FONT = {"family": "DejaVu Sans, system-ui, sans-serif", "size": 11}
CLASS_COLORS = {"inaccuracy": "#E6AB02", "mistake": "#E66100", "blunder": "#C0392B"}
"""Review classes, as the step log marks them (?!, ?, ??)."""


@dataclass(frozen=True)
class ScoreChart:
    """The score chart's words: its title and unit (``VP``), the ``parts`` of a score its
    hover lists, in order (None: all of them), and its element's id."""

    title: str = "Score"
    unit: str = "points"
    parts: Sequence[str] | None = None
    id: str = "replay-score"


Marks = Sequence[tuple[int, str]]
"""The milestones a chart marks: ``(step, text)``, in step order."""


def milestones(
    rows: Sequence[dict[str, Any]], kinds: Collection[str] | None
) -> list[tuple[int, str]]:
    """``(step, text)`` of every milestone of one of ``kinds`` (None: of any kind).

    >>> milestones([{"step": 0, "milestones": []}, {"step": 1, "milestones": [
    ...     {"kind": "round_won", "text": "Ana wins round 1", "seats": [0]}]}], ["round_won"])
    [(1, 'Ana wins round 1')]
    """
    return [
        (row["step"], m["text"])
        for row in rows
        for m in row["milestones"]
        if kinds is None or m["kind"] in kinds
    ]


def count_ticks(values: Iterable[float]) -> dict[str, Any]:
    """A count axis's ticks: whole numbers only (over a short span plotly would put halves).

    >>> count_ticks([0, 1, 2]), count_ticks([0, 40])
    ({'dtick': 1}, {})
    """
    shown = list(values)
    return {"dtick": 1} if max(shown, default=0) - min(shown, default=0) <= 10 else {}


def mark_shapes(marks: Marks, label_y: float = 1.0) -> tuple[list[Any], list[Any]]:
    """A chart's vertical lines and labels at its ``marks``; the last label ends at its line,
    so that a narrow chart's right edge does not cut it."""
    shapes, notes = [], []
    for i, (step, text) in enumerate(marks):
        shapes.append({
            "type": "line", "xref": "x", "yref": "paper", "x0": step, "x1": step, "y0": 0,
            "y1": 1, "line": {"color": "#555", "width": 1, "dash": DASHES[i % len(DASHES)]},
        })  # fmt: skip
        notes.append({
            "x": step, "y": label_y, "xref": "x", "yref": "paper", "text": text,
            "showarrow": False, "yanchor": "bottom", "font": {"size": 10, "color": "#444"},
            "xanchor": "right" if i == len(marks) - 1 else "center",
        })  # fmt: skip
    return shapes, notes


def base_layout(rows: Sequence[dict[str, Any]], height: int, title: str) -> dict[str, Any]:
    """The layout every timeline chart shares: steps on x, the same margins and font."""
    last = rows[-1]["step"]
    return {
        "height": height, "margin": MARGIN, "font": FONT,
        "title": {"text": title, "x": 0, "xanchor": "left", "y": 0.99, "yanchor": "top",
                  "font": {"size": 12}, "pad": {"l": 6}},
        "xaxis": {"range": [-0.5, last + 0.5], "title": {"text": "step", "standoff": 4},
                  "fixedrange": True, "zeroline": False},
        "paper_bgcolor": "rgba(0,0,0,0)", "plot_bgcolor": "#FFFFFF", "dragmode": False,
        "showlegend": False,
    }  # fmt: skip


def score_figure(
    rows: Sequence[dict[str, Any]], names: Sequence[str], colors: Sequence[str],
    chart: ScoreChart, marks: Marks,
) -> dict[str, Any]:  # fmt: skip
    """A line per seat of its score at each step; hover shows the parts ``chart`` names."""
    steps = [row["step"] for row in rows]
    parts = list(chart.parts) if chart.parts is not None else list(rows[0]["scores"][0]["parts"])
    listed = ", ".join(f"{part} %{{customdata[{i}]}}" for i, part in enumerate(parts))
    data = []
    scores = [s for row in rows for s in row["scores"]]
    for seat, name in enumerate(names):
        of_seat = [row["scores"][seat] for row in rows]
        data.append({
            "type": "scatter", "mode": "lines", "name": name, "x": steps,
            "y": [s["total"] for s in of_seat],
            "customdata": [[s["parts"].get(part) for part in parts] for s in of_seat],
            "line": {"color": colors[seat], "width": 2.5, "shape": "hv"},
            "hovertemplate": (
                f"<b>{name}</b> %{{y}} {chart.unit}" + (f": {listed}" if parts else "")
                + "<extra></extra>"
            ),
        })  # fmt: skip
    shapes, notes = mark_shapes(marks)
    layout = base_layout(rows, 250, chart.title)
    layout.update({
        "shapes": shapes, "annotations": notes, "hovermode": "x unified",
        "yaxis": {"title": {"text": chart.unit, "standoff": 4}, "fixedrange": True,
                  "rangemode": "tozero", **count_ticks([0, *(t["total"] for t in scores)])},
        "hoverlabel": {"font": {"size": 11}},
    })  # fmt: skip
    return {"data": data, "layout": layout}


def win_figure(
    rows: Sequence[dict[str, Any]], win: Sequence[Sequence[float]], names: Sequence[str],
    colors: Sequence[str], title: str, marks: Marks, flags: Sequence[tuple[int, int, str]],
    errors: Sequence[Sequence[float] | None],
) -> dict[str, Any]:  # fmt: skip
    """A line per seat of its win probability at each step (``win[step][seat]``, shown with
    ``± errors[step][seat]`` where known), with flagged actions ``(step, seat, class)``
    marked on the mover's line."""
    steps = [row["step"] for row in rows][: len(win)]

    def plus_minus(seat: int) -> list[str]:
        return ["" if e is None else f" ± {100 * e[seat]:.0f}" for e in errors]

    data: list[dict[str, Any]] = [{
        "type": "scatter", "mode": "lines", "name": name, "x": steps,
        "y": [round(100 * w[seat], 1) for w in win], "customdata": plus_minus(seat),
        "line": {"color": colors[seat], "width": 2.5},
        "hovertemplate": f"<b>{name}</b> %{{y:.0f}}%{{customdata}} %<extra></extra>",
    } for seat, name in enumerate(names)]  # fmt: skip
    if flags:
        data.append({
            "type": "scatter", "mode": "markers", "name": "flagged",
            "x": [s for s, _, _ in flags],
            "y": [round(100 * win[s][seat], 1) for s, seat, _ in flags],
            "text": [f"{names[seat]}: {c}" for _, seat, c in flags],
            "marker": {"size": 8, "color": [CLASS_COLORS[c] for *_, c in flags],
                       "line": {"color": "#111", "width": 1}},
            "hovertemplate": "%{text}<extra></extra>",
        })  # fmt: skip
    shapes, notes = mark_shapes(marks)
    layout = base_layout(rows, 220, title)
    layout.update({
        "shapes": shapes, "annotations": notes, "hovermode": "x unified",
        "yaxis": {"title": {"text": "win %", "standoff": 4}, "fixedrange": True,
                  "range": [-3, 103], "tickvals": [0, 25, 50, 75, 100]},
        "hoverlabel": {"font": {"size": 11}},
    })  # fmt: skip
    return {"data": data, "layout": layout}


def margins(rows: Sequence[dict[str, Any]]) -> list[list[int]]:
    """Per step, each seat's score minus the best other seat's.

    >>> margins([{"scores": [{"total": 5}, {"total": 3}, {"total": 1}]}])
    [[2, -2, -4]]
    """
    out = []
    for row in rows:
        totals = [s["total"] for s in row["scores"]]
        out.append([t - max(totals[:i] + totals[i + 1 :]) for i, t in enumerate(totals)])
    return out


def margin_figure(
    rows: Sequence[dict[str, Any]], names: Sequence[str], colors: Sequence[str], unit: str,
    marks: Marks,
) -> dict[str, Any]:  # fmt: skip
    """A line per seat of its lead in ``unit`` over the best other seat (negative: behind)."""
    steps = [row["step"] for row in rows]
    leads = margins(rows)
    data = [{
        "type": "scatter", "mode": "lines", "name": name, "x": steps,
        "y": [m[seat] for m in leads], "line": {"color": colors[seat], "width": 2, "shape": "hv"},
        "hovertemplate": f"<b>{name}</b> %{{y:+d}} {unit}<extra></extra>",
    } for seat, name in enumerate(names)]  # fmt: skip
    shapes, notes = mark_shapes(marks)
    shapes.append({
        "type": "line", "xref": "paper", "yref": "y", "x0": 0, "x1": 1, "y0": 0, "y1": 0,
        "line": {"color": "#333", "width": 1},
    })  # fmt: skip
    layout = base_layout(rows, 200, f"{unit} margin over the best other seat")
    layout.update({
        "shapes": shapes, "annotations": notes, "hovermode": "x unified",
        "yaxis": {"title": {"text": f"{unit} lead", "standoff": 4}, "fixedrange": True,
                  "zeroline": False, **count_ticks(m for lead in leads for m in lead)},
        "hoverlabel": {"font": {"size": 11}},
    })  # fmt: skip
    return {"data": data, "layout": layout}
