"""Plotly figures of one game's timeline: VP, win probability, VP margin and region control.

All share the x axis (steps) and margins, so they line up; the browser draws the
current step's cursor over them (``assets/replay.js``), so they are drawn only once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dashboard.palette import EMPTY, TIED, tint

AREAS = ("regions", "spread", "speed", "howl", "lairs", "prey", "pack")
MARGIN = {"l": 86, "r": 12, "t": 26, "b": 34}
PHASE_DASH = {"crescent": "dot", "quarter": "dash", "full": "solid"}
FONT = {"family": "DejaVu Sans, system-ui, sans-serif", "size": 11}
CLASS_COLORS = {"inaccuracy": "#E6AB02", "mistake": "#E66100", "blunder": "#C0392B"}
"""Review classes, as the step log marks them (?!, ?, ??)."""


def scoring_steps(rows: Sequence[dict[str, Any]]) -> list[tuple[int, str]]:
    """``(step, phase)`` for every phase scored, in order."""
    out: list[tuple[int, str]] = []
    for row in rows:
        for phase in dict.fromkeys(s["phase"] for s in row["scoring"]):
            out.append((row["step"], phase))
    return out


def _phase_marks(rows: Sequence[dict[str, Any]], label_y: float = 1.0) -> tuple[list, list]:
    shapes, notes = [], []
    for step, phase in scoring_steps(rows):
        shapes.append({
            "type": "line", "xref": "x", "yref": "paper", "x0": step, "x1": step, "y0": 0,
            "y1": 1, "line": {"color": "#555", "width": 1, "dash": PHASE_DASH.get(phase, "dot")},
        })  # fmt: skip
        notes.append({
            "x": step, "y": label_y, "xref": "x", "yref": "paper", "text": phase,
            "showarrow": False, "yanchor": "bottom", "font": {"size": 10, "color": "#444"},
        })  # fmt: skip
    return shapes, notes


def _base_layout(rows: Sequence[dict[str, Any]], height: int, title: str) -> dict[str, Any]:
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


def vp_figure(
    rows: Sequence[dict[str, Any]], names: Sequence[str], colors: Sequence[str]
) -> dict[str, Any]:
    """A line per seat of its VP at each step; hover shows the breakdown."""
    steps = [row["step"] for row in rows]
    data = []
    for seat, name in enumerate(names):
        vps = [row["vp"][seat] for row in rows]
        data.append({
            "type": "scatter", "mode": "lines", "name": name, "x": steps,
            "y": [v["total"] for v in vps],
            "customdata": [[v[a] for a in AREAS] for v in vps],
            "line": {"color": colors[seat], "width": 2.5, "shape": "hv"},
            "hovertemplate": (
                f"<b>{name}</b> %{{y}} VP: regions %{{customdata[0]}}, spread %{{customdata[1]}}, "
                "speed %{customdata[2]}, howl %{customdata[3]}, lairs %{customdata[4]}, "
                f"prey %{{customdata[5]}}, pack %{{customdata[6]}}<extra></extra>"
            ),
        })  # fmt: skip
    shapes, notes = _phase_marks(rows)
    layout = _base_layout(rows, 250, "Victory points")
    layout.update({
        "shapes": shapes, "annotations": notes, "hovermode": "x unified",
        "yaxis": {"title": {"text": "VP", "standoff": 4}, "fixedrange": True,
                  "rangemode": "tozero"},
        "hoverlabel": {"font": {"size": 11}},
    })  # fmt: skip
    return {"data": data, "layout": layout}


def _who(key: str | None, names: Sequence[str]) -> str:
    if key is None:
        return "nobody"
    return "the automaton" if key == "automaton" else names[int(key)]


def control_figure(
    rows: Sequence[dict[str, Any]], names: Sequence[str], colors: Sequence[str]
) -> dict[str, Any]:
    """A heatmap region × step coloured by the leader, darker for a bigger lead, with
    each region's scorings marked."""
    keys = [str(s) for s in range(len(names))]
    if any("automaton" in c["control"] for row in rows for c in row["control"]):
        keys.append("automaton")
    bands = len(keys) + 1  # band 0: nobody / tied
    regions = [c["region"] for c in rows[0]["control"]]
    z: list[list[float]] = []
    text: list[list[str]] = []
    for i, _region in enumerate(regions):
        zrow, trow = [], []
        for row in rows:
            cell = row["control"][i]
            held = sorted(cell["control"].items(), key=lambda kv: -kv[1])
            leader = cell["leader"]
            if leader is None:
                zrow.append(0.9 if held else 0.1)
                head = "tied" if held else "empty"
            else:
                strength = min(cell["margin"], 4) / 4
                zrow.append(keys.index(leader) + 1 + 0.05 + 0.9 * strength)
                head = f"{_who(leader, names)} leads by {cell['margin']}"
            standing = ", ".join(f"{_who(k, names)} {v}" for k, v in held) or "no pieces"
            trow.append(f"step {row['step']} · {head}<br>{standing}")
        z.append(zrow)
        text.append(trow)
    scale: list[list[Any]] = [[0, EMPTY], [0.999 / bands, TIED]]
    contender_colors = [*colors[: len(names)], colors[-1]]
    for k, key in enumerate(keys, start=1):
        color = contender_colors[-1] if key == "automaton" else contender_colors[int(key)]
        scale.append([k / bands, tint(color, 0.3 if key != "automaton" else 0.45)])
        scale.append([(k + 0.999) / bands, color])
    scale[-1][0] = 1
    first_tokens = {c["region"]: c["top"] for c in rows[0]["control"]}
    labels = [f"R{r} {first_tokens.get(r) or ''}".strip() for r in regions]
    data: list[dict[str, Any]] = [{
        "type": "heatmap", "z": z, "x": [row["step"] for row in rows], "y": labels,
        "zmin": 0, "zmax": bands, "colorscale": scale, "showscale": False, "text": text,
        "hovertemplate": "%{y}, %{text}<extra></extra>", "xgap": 0, "ygap": 1,
    }]  # fmt: skip
    mx, my, mtext = [], [], []
    for row in rows:
        for scored in row["scoring"]:
            placed = [s for s in scored["standings"] if s["place"] is not None]
            who = ", ".join(
                f"{'the automaton' if s['seat'] is None else names[s['seat']]} {s['points']}"
                for s in placed
            )
            mx.append(row["step"])
            my.append(labels[regions.index(scored["region"])])
            mtext.append(f"{scored['phase']} scoring: {who or 'nobody'}")
    data.append({
        "type": "scatter", "mode": "markers", "x": mx, "y": my, "text": mtext,
        "marker": {"symbol": "star", "size": 11, "color": "#FFFFFF",
                   "line": {"color": "#111", "width": 1.3}},
        "hovertemplate": "%{y} · step %{x}<br>%{text}<extra></extra>", "name": "scored",
    })  # fmt: skip
    shapes, notes = _phase_marks(rows)
    layout = _base_layout(rows, 60 + 22 * len(regions), "Region control (colour: leader)")
    layout.update({
        "shapes": shapes, "annotations": notes, "hovermode": "closest",
        "yaxis": {"autorange": "reversed", "fixedrange": True, "tickfont": {"size": 10}},
    })  # fmt: skip
    return {"data": data, "layout": layout}


def win_figure(
    rows: Sequence[dict[str, Any]], win: Sequence[Sequence[float]], names: Sequence[str],
    colors: Sequence[str], title: str, flags: Sequence[tuple[int, int, str]] = (),
) -> dict[str, Any]:  # fmt: skip
    """A line per seat of its win probability at each step (``win[step][seat]``), with
    flagged actions ``(step, seat, class)`` marked on the mover's line."""
    steps = [row["step"] for row in rows][: len(win)]
    data: list[dict[str, Any]] = [{
        "type": "scatter", "mode": "lines", "name": name, "x": steps,
        "y": [round(100 * w[seat], 1) for w in win],
        "line": {"color": colors[seat], "width": 2.5},
        "hovertemplate": f"<b>{name}</b> %{{y:.0f}} %<extra></extra>",
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
    shapes, notes = _phase_marks(rows)
    layout = _base_layout(rows, 220, title)
    layout.update({
        "shapes": shapes, "annotations": notes, "hovermode": "x unified",
        "yaxis": {"title": {"text": "win %", "standoff": 4}, "fixedrange": True,
                  "range": [-3, 103], "tickvals": [0, 25, 50, 75, 100]},
        "hoverlabel": {"font": {"size": 11}},
    })  # fmt: skip
    return {"data": data, "layout": layout}


def vp_margins(rows: Sequence[dict[str, Any]]) -> list[list[int]]:
    """Per step, each seat's VP minus the best other seat's.

    >>> vp_margins([{"vp": [{"total": 5}, {"total": 3}, {"total": 1}]}])
    [[2, -2, -4]]
    """
    out = []
    for row in rows:
        totals = [v["total"] for v in row["vp"]]
        out.append([t - max(totals[:i] + totals[i + 1 :]) for i, t in enumerate(totals)])
    return out


def margin_figure(
    rows: Sequence[dict[str, Any]], names: Sequence[str], colors: Sequence[str]
) -> dict[str, Any]:
    """A line per seat of its VP lead over the best other seat (negative: behind)."""
    steps = [row["step"] for row in rows]
    margins = vp_margins(rows)
    data = [{
        "type": "scatter", "mode": "lines", "name": name, "x": steps,
        "y": [m[seat] for m in margins], "line": {"color": colors[seat], "width": 2, "shape": "hv"},
        "hovertemplate": f"<b>{name}</b> %{{y:+d}} VP<extra></extra>",
    } for seat, name in enumerate(names)]  # fmt: skip
    shapes, notes = _phase_marks(rows)
    shapes.append({
        "type": "line", "xref": "paper", "yref": "y", "x0": 0, "x1": 1, "y0": 0, "y1": 0,
        "line": {"color": "#333", "width": 1},
    })  # fmt: skip
    layout = _base_layout(rows, 200, "VP margin over the best other seat")
    layout.update({
        "shapes": shapes, "annotations": notes, "hovermode": "x unified",
        "yaxis": {"title": {"text": "VP lead", "standoff": 4}, "fixedrange": True,
                  "zeroline": False},
        "hoverlabel": {"font": {"size": 11}},
    })  # fmt: skip
    return {"data": data, "layout": layout}
