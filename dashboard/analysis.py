"""The replay's analysis: win probability per step, classified actions, key moments, status.

The stored review (``projections.analysis_worker.analysis_status``) is used when it is
done; until then the win probabilities are the static evaluator's, one position per step.
What the browser needs per step goes into the ``replay-analysis`` store once, so a step
change stays in the browser (``assets/replay.js``).

>>> action_marks({"type": "move", "moves": [{"from": [1, 2], "to": [3, 4]}]})
{'hexes': [], 'arrows': [[1, 2, 3, 4]]}
>>> swings([[0.5, 0.5], [0.5, 0.5], [0.9, 0.1]], 0.05, 5)
[{'step': 2, 'swing': 0.4, 'gainer': 0, 'loser': 1}]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypedDict
from uuid import UUID

from dash import html

from dashboard import charts
from domain.ruleset import Review
from domain.store import GameLibrary

Shows = TypedDict("Shows", {"data-show": str, "aria-label": str})
Stepped = TypedDict("Stepped", {"data-step": str})
"""Attributes with a dash in their name, as Dash components take them."""
MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
"""The step log's mark of each review class."""
POLL_MS = 2000
"""How often the page asks for the status of a queued or running review."""
ALTERNATIVES = 3
"""Most of the other better actions a flagged action lists."""
SURE = {"clear": "clear", "likely": "likely", "low": "low (draft)"}
"""How the page says the review's confidence in a flagged action."""


def static_win(library: GameLibrary, game_id: UUID, last: int) -> list[list[float]]:
    """The static evaluator's win probability per seat at every step of a stored game (of
    a game with a review)."""
    review = library.rules(game_id).review
    assert review is not None
    return [
        [round(w, 4) for w in review.win(library.state_at(game_id, n))] for n in range(last + 1)
    ]


def action_marks(action: dict[str, Any]) -> dict[str, list[list[int]]]:
    """Where an action (record JSON) acts on the map: hexes to outline, moves as arrows."""
    hexes = [action[k] for k in ("hex", "push_to") if action.get(k) is not None]
    arrows = [[*m["from"], *m["to"]] for m in action.get("moves", ())]
    hexes += [m["push_to"] for m in action.get("moves", ()) if m.get("push_to") is not None]
    return {"hexes": [list(h) for h in hexes], "arrows": arrows}


def swings(win: Sequence[Sequence[float]], least: float, most: int) -> list[dict[str, Any]]:
    """The steps where the win probabilities moved by at least ``least`` (the review's
    turning points, computed on any win series): the ``most`` largest, in step order."""
    found = []
    for step in range(1, len(win)):
        players = len(win[step])
        change = [a - b for a, b in zip(win[step], win[step - 1], strict=True)]
        swing = sum(abs(c) for c in change) / 2
        if swing >= least:
            found.append({
                "step": step, "swing": round(swing, 4),
                "gainer": max(range(players), key=lambda k: change[k]),
                "loser": min(range(players), key=lambda k: change[k]),
            })  # fmt: skip
    found.sort(key=lambda t: -t["swing"])
    return sorted(found[:most], key=lambda t: t["step"])


def review_marks(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Per flagged step (as a string key): class, mover, loss with its standard error and
    how sure the review is of it, the better action's label and where it acts on the map,
    and up to :data:`ALTERNATIVES` other better actions (label, win chance gained)."""
    marks = {}
    for s in result["steps"]:
        best = s.get("best")
        if s["classification"] and best:
            better = sorted(
                (
                    a
                    for a in s["alternatives"]
                    if a["win"] > s["win_after"] and a["label"] != best["label"]
                ),
                key=lambda a: -a["win"],
            )
            marks[str(s["step"])] = {
                "c": s["classification"], "seat": s["seat"], "gain": s["loss"],
                "se": s["loss_se"], "sure": SURE[s["confidence"]],
                "best": best["label"], **action_marks(best["action"]),
                "others": [[a["label"], round(a["win"] - s["win_after"], 4)]
                           for a in better[:ALTERNATIVES]],
            }  # fmt: skip
    return marks


def lost(mark: dict[str, Any]) -> str:
    """A flagged action's loss as the page says it: ``+8 ± 3 % win chance, clear``."""
    return (f"+{100 * mark['gain']:.0f} ± {100 * mark['se']:.0f} % win chance, "
            f"{mark['sure']}")  # fmt: skip


def win_series(
    static: list[list[float]], result: dict[str, Any] | None
) -> tuple[list[list[float]], list[list[float] | None]]:
    """The review's win probabilities per step where it has them, else the static ones, and
    their standard errors per step (None: the static evaluator's, whose error is unknown)."""
    win = [list(w) for w in static]
    errors: list[list[float] | None] = [None] * len(win)
    for point in (result or {}).get("graph", ()):
        if 0 <= point["step"] < len(win):
            win[point["step"]], errors[point["step"]] = point["win"], point["se"]
    return win, errors


def moments_list(
    moments: Sequence[dict[str, Any]], log: Sequence[list[Any]], names: Sequence[str],
    colors: Sequence[str], marks: dict[str, dict[str, Any]],
) -> list[html.Li] | html.P:  # fmt: skip
    """The key moments as list items that jump to their step on click."""
    if not moments:
        return html.P("No large swings.", className="note")
    items = []
    for m in moments:
        step, mark = m["step"], marks.get(str(m["step"]))
        items.append(html.Li([
            html.Span(str(step), className="log-n"),
            html.Span([
                html.Span(className="dot", style={"background": colors[m["gainer"]]}),
                f"{names[m['gainer']]} +{100 * m['swing']:.0f} %",
            ], className="gainer"),
            html.Span(MARKS[mark["c"]], className=f"mark {mark['c']}") if mark else None,
            html.Span(log[step][2], className="moment-what"),
        ], className="moment", tabIndex=0, **Stepped({"data-step": str(step)})))  # fmt: skip
    return items


def flagged_list(
    marks: dict[str, dict[str, Any]], log: Sequence[list[Any]], names: Sequence[str],
    colors: Sequence[str],
) -> list[html.Li] | html.P:  # fmt: skip
    """The review's flagged actions, in step order: what was played, the better action and
    a "Show" button that plays the review's suggested line from there as a variation
    (``data-show``: the action's index, ``assets/explore.js``)."""
    if not marks:
        return html.P("No flagged action.", className="note")
    items = []
    for key in sorted(marks, key=int):
        step, mark = int(key), marks[key]
        if step >= len(log):
            continue
        items.append(html.Li([
            html.Span(str(step), className="log-n"),
            html.Span(MARKS[mark["c"]], className=f"mark {mark['c']}"),
            html.Span(className="dot", style={"background": colors[mark["seat"]]}),
            html.Span(log[step][2], className="moment-what"),
            html.Span([f"{names[mark['seat']]} could have played: ", html.B(mark["best"]),
                       f" ({lost(mark)})"], className="flag-better"),
            html.Ul([html.Li(f"{label} (+{100 * gain:.0f} %)") for label, gain in mark["others"]],
                    className="flag-others", title="other better actions the review found")
            if mark["others"] else None,
            html.Button("Show", type="button", className="step-button show-line",
                        title=f"play the suggested line from step {step} as a variation",
                        **Shows({"data-show": str(step - 1),
                                 "aria-label": f"Show the better line at step {step}"})),
        ], className="moment flag", tabIndex=0, **Stepped({"data-step": str(step)})))  # fmt: skip
    return items


def accuracy_table(seats: Sequence[dict[str, Any]]) -> html.Table | None:
    """The seats' accuracy over the game and per stage of it (columns as the review names
    its stages; a review made before stages were kept has none); None when no seat had a
    choice."""
    shown = [s for s in seats if s.get("accuracy") is not None]
    if not shown:
        return None
    stages = [part["stage"] for part in shown[0].get("stages", ())]

    def cell(value: float | None) -> html.Td:
        return html.Td("–" if value is None else f"{value:.0f}")

    rows = []
    for s in shown:
        parts = {part["stage"]: part["accuracy"] for part in s.get("stages", ())}
        rows.append(html.Tr([html.Th(s["name"], scope="row"), cell(s["accuracy"]),
                             *(cell(parts.get(stage)) for stage in stages)]))  # fmt: skip
    head = html.Tr([html.Th("Accuracy"), html.Th("game"), *(html.Th(stage) for stage in stages)])
    return html.Table([html.Thead(head), html.Tbody(rows)], className="accuracy")


def status_line(status: dict[str, Any]) -> list[Any]:
    """What the page says about the game's review."""
    state = status["status"]
    if state == "queued":
        return ["Analysis queued…"]
    if state == "running":
        share = status["progress"]
        bar = html.Progress(value=f"{share:.3f}", max="1", className="analysis-progress")
        return [f"Analysing… {100 * share:.0f} % ", bar]
    if state == "failed":
        return [f"The analysis failed: {status.get('error') or 'unknown error'}."]
    if state == "done":
        seats = status["result"].get("seats", [])
        table = accuracy_table(seats)
        game = status.get("game_id")  # practice of the seats that made mistakes (practice.py)
        practise = [html.A(f"Practise {s['name']}", href=f"/practice/{game}?seat={s['seat']}",
                           className="practise") for s in seats
                    if game and s["mistakes"] + s["blunders"]]  # fmt: skip
        return ["Reviewed.", *([table] if table else []), *practise]
    return ["Not analysed yet: the win chances shown are the static evaluator's estimate."]


def view(
    review: Review, status: dict[str, Any], static: list[list[float]],
    rows: list[dict[str, Any]], log: Sequence[list[Any]], names: Sequence[str],
    colors: Sequence[str], milestones: charts.Marks,
) -> dict[str, Any]:  # fmt: skip
    """Everything the page shows of the game's ``review`` for ``status``: the browser's
    data, the win figure (with the timeline's ``milestones`` marked), key moments, the
    flagged actions, the status line, the button and whether to poll."""
    state = status["status"]
    result = status["result"] if state == "done" else None
    win, errors = win_series(static, result)
    marks = review_marks(result) if result else {}
    flags = [(int(k), m["seat"], m["c"]) for k, m in marks.items() if int(k) < len(win)]
    title = "Win probability (review)" if result else "Win probability (static estimate)"
    least = review.thresholds[-1][1] / len(names)
    moments = result["turning_points"] if result else swings(win, least, review.turning_points)
    return {
        "data": {"status": state, "key": status.get("settings_key") if result else None,
                 "marks": marks},
        "figure": charts.win_figure(rows, win, names, colors, title, milestones, sorted(flags),
                                    errors),
        "moments": moments_list(moments, log, names, colors, marks),
        "flagged": flagged_list(marks, log, names, colors) if result else [],
        "status": status_line(status),
        "button": {"display": "inline-block" if state in ("none", "failed") else "none"},
        "poll_off": state not in ("queued", "running"),
    }  # fmt: skip
