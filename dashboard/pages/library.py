"""``/``: the game library — a searchable, sortable, paged table of every game's games (or
one game's), and record upload."""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any
from urllib.parse import quote

from dash import Dash, Input, Output, State, ctx, dcc, html, no_update
from flask import current_app

from dashboard import data, query
from dashboard.inputs import MAX_TEXT, choice, integer, search_box, text, texts
from dashboard.palette import TERRAIN_COLORS, player_color
from dashboard.token import refused
from domain.games import UnknownGame, ruleset, rulesets
from domain.replays import RecordError
from domain.ruleset import InvalidRecord
from domain.store.game import MAX_TAGS
from projections.filters import player_counts, seat_attributes
from projections.games import BadCursor, GamePage
from services.refusals import Refusal
from services.uploads import too_large

PAGE_SIZE = 20
GAMES = {rules.name: rules.title for rules in rulesets()}
"""The games the library filters by, and their titles."""
SEATS = player_counts()
ATTRIBUTES = {
    f"{name}={value}": (name, value)
    for name, (_, values) in seat_attributes().items() for value in values
}  # fmt: skip
"""The seat attribute filters (``terrain=tundra``): each game's seat attribute and value."""
ATTRIBUTE_LABELS = ", ".join(label for label, _ in seat_attributes().values())
COLUMNS = (  # (label, sort key or None)
    ("Title", "title"), ("Game", None), ("Players", "names"),
    (ATTRIBUTE_LABELS.capitalize() or "—", None), ("Seats", "players"), ("Winner", "winner"),
    ("Top score", "top_score"), ("Actions", "actions"), ("Uploaded", "uploaded_at"),
)  # fmt: skip
SORTS = {key: label for label, key in COLUMNS if key}
ORDERS = tuple(f"{sign}{key}" for key in SORTS for sign in ("-", ""))
DEFAULT_SORT = "-uploaded_at"
MAX_PAGES = 10_000
"""Most pages deep the library's cursor stack may go."""
FILTERS = ("game", "player", "attribute", "players", "q", "tag", "winner", "sort")
"""The library's filters (``library-<name>``), as its address's query string names them."""


def chosen(
    game: Any, player: Any, attribute: Any, players: Any, q: Any, tag: Any, winner: Any,
    sort: Any,
) -> dict[str, Any]:  # fmt: skip
    """The filters as the library applies them: one of the wrong type or out of range is
    None (the sort: the default)."""
    return {
        "game": choice(game, GAMES), "player": text(player),
        "attribute": choice(attribute, ATTRIBUTES), "players": integer(players, SEATS),
        "q": text(q), "tag": text(tag, MAX_TAGS), "winner": text(winner),
        "sort": choice(sort, ORDERS, DEFAULT_SORT),
    }  # fmt: skip


def address(
    game: Any, player: Any, attribute: Any, players: Any, q: Any, tag: Any, winner: Any,
    sort: Any, search: Any,
) -> Any:  # fmt: skip
    """The query string of the filters the library applies; left as it is (``search``) when
    it names them already (the page just opened from it, or the back button went to it)."""
    shown = chosen(game, player, attribute, players, q, tag, winner, sort)
    if shown == named(search):
        return no_update
    return query.write({**shown, "sort": None if shown["sort"] == DEFAULT_SORT else shown["sort"]})


def named(search: Any) -> dict[str, Any]:
    """The filters an address's query string (``search``) names, as the library applies them
    (one it cannot use: None)."""
    asked = query.read(search)
    counted = {"players": query.number(asked.get("players"), SEATS)}
    return chosen(**{**{name: asked.get(name) for name in FILTERS}, **counted})


def follow(search: Any, *values: Any) -> tuple[Any, ...]:
    """The filters (in :data:`FILTERS`' order) the address names once it changed under them
    (the browser's back and forward buttons); those shown already are left as they are."""
    wanted, shown = named(search), chosen(*values)
    return tuple(no_update if wanted[n] == shown[n] else wanted[n] for n in FILTERS)


def layout(search: Any = None) -> html.Div:
    """The library page with the filters its address's query string names (``search``: one
    it cannot use is left out); its table fills in from the read models."""
    shown = named(search)
    return html.Div(
        [
            html.H2("Library"),
            dcc.Upload(
                html.Div(
                    [
                        "Drop a game record here (JSON, whatever the file's name), or ",
                        html.Button("choose a file", className="upload-choose", type="button"),
                    ]
                ),
                id="library-upload",
                className="upload",
                multiple=False,  # no ``accept``: the browser would drop another file unsaid
            ),
            dcc.Store(id="library-upload-limit", data=current_app.config["MAX_CONTENT_LENGTH"]),
            dcc.Store(id="library-upload-checked"),
            html.Div(id="library-upload-size", role="alert"),
            dcc.Loading(html.Div(id="library-upload-result", role="status"), type="dot"),
            html.Div(
                [
                    dcc.Dropdown(
                        id="library-game",
                        value=shown["game"],
                        placeholder="any game",
                        options=[{"label": title, "value": name} for name, title in GAMES.items()],
                        className="filter",
                    ),
                    *search_box("library-player", "player", value=shown["player"]),
                    dcc.Dropdown(
                        id="library-attribute",
                        value=shown["attribute"],
                        placeholder=ATTRIBUTE_LABELS or "—",
                        className="filter",
                        **attribute_filter(shown["game"]),
                    ),
                    dcc.Dropdown(
                        id="library-players",
                        value=shown["players"],
                        placeholder="seats",
                        options=[{"label": f"{n} players", "value": n} for n in SEATS],
                        className="filter",
                    ),
                    *search_box("library-q", "title or player", value=shown["q"]),
                    *search_box("library-tag", "tag", value=shown["tag"]),
                    *search_box("library-winner", "winner", value=shown["winner"]),
                    dcc.Dropdown(
                        id="library-sort",
                        value=shown["sort"],
                        clearable=False,
                        options=[
                            {"label": f"{label} {arrow}", "value": f"{sign}{key}"}
                            for key, label in SORTS.items()
                            for sign, arrow in (("-", "↓"), ("", "↑"))
                        ],
                        className="filter sort",
                    ),
                ],
                className="filters",
            ),  # fmt: skip
            dcc.Store(id="library-cursors", data=[None]),
            dcc.Store(id="library-next", data=None),
            html.Div(id="library-table", className="table-scroll"),
            html.Div(
                [
                    html.Button("← Previous", id="library-prev", n_clicks=0, disabled=True),
                    html.Span(id="library-count", className="count"),
                    html.Button("Next →", id="library-next-page", n_clicks=0, disabled=True),
                ],
                className="pager",
            ),
        ],
        id="library",
    )


def _seats(item: dict[str, Any]) -> list[dict[str, Any]]:
    return sorted(item.get("seats") or [], key=lambda s: s.get("seat", 0))


def _game_id(item: dict[str, Any]) -> str:
    return str(item.get("id") or item.get("game_id"))


def _title(game: Any) -> str:
    """A game's title (its name, for a game not registered here)."""
    try:
        return ruleset(game).title
    except UnknownGame:
        return str(game)


def attribute_filter(game: Any) -> dict[str, Any]:
    """The seat attribute filter's ``options`` for the chosen ``game`` (every game's, when
    none is chosen), and its ``style``: hidden for a game whose seats have no attribute."""
    chosen = isinstance(game, str) and game in GAMES
    names = {_attribute(game)} if chosen else set(seat_attributes())
    options = [{"label": value, "value": key}
               for key, (name, value) in ATTRIBUTES.items() if name in names]  # fmt: skip
    return {"options": options, "style": {} if options else {"display": "none"}}


def _attribute_filter(game: Any) -> tuple[list[dict[str, str]], dict[str, str]]:
    """:func:`attribute_filter` as the callback gives it: options, style."""
    shown = attribute_filter(game)
    return shown["options"], shown["style"]


def _attribute(game: Any) -> str | None:
    try:
        return ruleset(game).statistics.attribute
    except UnknownGame:
        return None


def _row(item: dict[str, Any]) -> html.Tr:
    seats = _seats(item)
    winners = [s for s in seats if s.get("place") == 1 and item.get("finished")]
    people = []
    for s in seats:
        color = player_color(s.get("color") or "", s.get("seat", 0))
        people.append(html.Span(
            [html.Span(className="dot", style={"background": color}),
             dcc.Link(s["name"], href=f"/player/{quote(s['name'], safe='')}")],
            className="who" + (" won" if s in winners else ""),
        ))  # fmt: skip
    attribute = _attribute(item.get("game"))
    chips = [
        html.Span(str(s.get(attribute) or "")[:1].upper(), className="chip",
                  title=s.get(attribute),
                  style={"background": TERRAIN_COLORS.get(s.get(attribute) or "", "#ddd")})
        for s in seats if attribute
    ]  # fmt: skip
    if winners:
        winner = ", ".join(f"{s['name']} ({s.get('total')})" for s in winners)
    else:
        winner = "in progress" if not item.get("finished") else "—"
    top = max((s.get("total") or 0 for s in seats), default=item.get("top_score"))
    uploaded = str(item.get("uploaded_at") or "")[:16].replace("T", " ")
    name: list[Any] = [
        dcc.Link(item.get("title") or "Untitled game", href=f"/replay/{_game_id(item)}",
                 className="game-link"),
        html.Span(f" {_game_id(item)[:8]}", className="muted"),
    ]  # fmt: skip
    if not item.get("finished"):
        name += [" ", html.Span("in progress", className="in-progress")]
    return html.Tr([
        html.Td(name),
        html.Td(_title(item.get("game")), className="game-name"),
        html.Td(people, className="people"), html.Td(chips), html.Td(str(len(seats))),
        html.Td(winner), html.Td(str(top)), html.Td(str(item.get("actions", ""))),
        html.Td(uploaded),
    ])  # fmt: skip


def table(items: list[dict[str, Any]], sort: str) -> html.Table:
    """The games as a table; sortable columns show the current order."""
    key = sort.lstrip("-")
    heads = []
    for label, column in COLUMNS:
        if column is None:
            heads.append(html.Th(label))
            continue
        arrow = (" ↓" if sort.startswith("-") else " ↑") if column == key else ""
        head = html.Th(html.Button(label + arrow, id={"sort": column}, n_clicks=0,
                                   className="sort-head"))  # fmt: skip
        if column == key:
            setattr(head, "aria-sort", "descending" if sort.startswith("-") else "ascending")
        heads.append(head)
    return html.Table([html.Thead(html.Tr(heads)), html.Tbody([_row(i) for i in items])],
                      className="games")  # fmt: skip


def upload_error(err: Exception, filename: str | None = None) -> html.Div:
    """The engine's verdict on a rejected record, inline (naming its file, when known)."""
    of = f" ({filename})" if filename else ""
    if isinstance(err, RecordError):
        return html.Div([
            html.B(f"Illegal record{of}: "),
            html.Span(f"action {err.index} (step {err.index + 1}) breaks rule {err.rule}: "
                      f"{err.message}"),
            html.Pre(json.dumps(err.action), className="action-json"),
        ], className="upload-error",
        **{"data-index": str(err.index), "data-rule": err.rule},  # type: ignore[arg-type]
        )  # fmt: skip
    if isinstance(err, InvalidRecord):
        where = f" at {err.path}" if err.path else ""
        return html.Div([html.B(f"Invalid record{of}"), f"{where}: {err.message}"],
                        className="upload-error",
                        **{"data-path": err.path})  # type: ignore[arg-type]  # fmt: skip
    return html.Div([html.B(f"Not a game record{of}: "), str(err)], className="upload-error")


CHECK_SIZE = """(contents, filename, limit) => {
    const none = window.dash_clientside.no_update;
    if (typeof contents !== "string" || !contents) { return [none, "", none, none]; }
    const data = contents.length - contents.indexOf(",") - 1;
    const pad = contents.endsWith("==") ? 2 : contents.endsWith("=") ? 1 : 0;
    const size = Math.floor(data * 3 / 4) - pad;
    if (!limit || size <= limit) { return [contents, "", none, none]; }
    const mb = (n) => Number((n / 1048576).toPrecision(3)).toString();
    return [none, `${filename || "The file"} is ${mb(size)} MiB (${size} bytes): too large: ` +
        `the limit is ${mb(limit)} MiB (${limit} bytes, HOWL_MAX_UPLOAD_BYTES). Nothing was sent.`,
        null, null];
}"""
"""The browser's check of a dropped file's size before it is sent (a file over the limit
would be refused before any callback could say so): a file within the limit goes on to
:func:`upload`; one over it is named in the upload area, as :func:`services.uploads.too_large`
says it, and the area and the last upload's answer are emptied."""


def upload(contents: Any, filename: Any, token: Any) -> tuple[Any, Any, Any, Any]:
    """Store an uploaded record as the token's name, then open its replay (without the
    library's query string); or show why it was refused (no token, an unknown one) or
    rejected, or link the game when it is already stored. The upload area is emptied
    either way, so dropping the same file again (say, once a token is entered) is a new
    upload. Whatever the file's name, its content decides."""
    if not isinstance(contents, str) or not contents:
        return no_update, no_update, no_update, no_update
    shown, path = _upload(contents, filename, token)
    return shown, path, no_update if path is no_update else "", None


def _upload(contents: str, filename: Any, token: Any) -> tuple[Any, Any]:
    """What ``upload`` shows of a dropped file, and the replay to open (or ``no_update``)."""
    filename = text(filename, MAX_TEXT)
    try:
        uploader = data.writer(token, "Uploading")
    except data.WriteRefused as err:
        return refused(err, "upload-error"), no_update
    try:
        raw = base64.b64decode(contents.partition(",")[2], validate=True)
    except (binascii.Error, ValueError) as err:
        unreadable = ValueError(f"{filename or 'the file'} could not be read ({err})")
        return upload_error(unreadable), no_update
    limit = current_app.config["MAX_CONTENT_LENGTH"]
    if limit is not None and len(raw) > limit:
        too_big = ValueError(too_large(limit, filename or "The file", len(raw)))
        return upload_error(too_big), no_update
    try:
        result = data.upload(raw, uploader)
    except (RecordError, InvalidRecord) as err:
        return upload_error(err, filename), no_update
    except Refusal as err:  # too many actions, too costly, or a store that cannot write
        return upload_error(ValueError(err.detail), filename), no_update
    if not result.created:
        game = data.library().info(result.game_id)
        return html.Div([
            f"{filename or 'This record'} is already in the library: ",
            dcc.Link(game.title or "Untitled game", href=f"/replay/{result.game_id}"),
            html.Span(f" {str(result.game_id)[:8]}", className="muted"),
        ], className="upload-ok upload-known", **{"data-game": str(result.game_id)},  # type: ignore[arg-type]
        ), no_update  # fmt: skip
    return html.Div(f"Stored {filename or 'the record'}.", className="upload-ok"), (
        f"/replay/{result.game_id}"
    )


def refresh(
    game: Any, player: Any, attribute: Any, players: Any, q: Any, tag: Any, winner: Any,
    sort: Any, _prev: Any, _next: Any, token: Any, cursors: Any, next_cursor: Any,
) -> tuple[Any, ...]:  # fmt: skip
    """Fill the table for the filters, sort and page (cursor paging: a stack of cursors),
    with the private games of the token's name among them. A filter of the wrong type or
    out of range is left out; an unusable cursor starts over, and a seat attribute another
    game than the chosen one has matches nothing."""
    filters = chosen(game, player, attribute, players, q, tag, winner, sort)
    sort, attribute = filters.pop("sort"), filters.pop("attribute")
    cursors, next_cursor = texts(cursors, MAX_PAGES, [None]), text(next_cursor, 10_000)
    trigger = ctx.triggered_id
    if trigger == "library-next-page" and next_cursor and len(cursors) < MAX_PAGES:
        cursors = [*cursors, next_cursor]
    elif trigger == "library-prev" and len(cursors) > 1:
        cursors = cursors[:-1]
    else:
        cursors = [None]
    models = data.fresh()
    seat = dict([ATTRIBUTES[attribute]]) if attribute else {}
    asked = any(filters.values()) or attribute
    filters.update(seat, viewer=data.reader(token))
    try:
        try:
            page = models.list_games(**filters, sort=sort, cursor=cursors[-1], limit=PAGE_SIZE)
        except BadCursor:  # a cursor the read models did not make, or made for another sort
            cursors = [None]
            page = models.list_games(**filters, sort=sort, limit=PAGE_SIZE)
    except ValueError:  # the chosen game has no such seat attribute
        page = GamePage()
    if not page.total and not asked:
        body: Any = html.P("No games yet.", className="placeholder")
    elif not page.items:
        body = html.P("No games match these filters.", className="placeholder")
    else:
        body = table(page.items, sort)
    first = (len(cursors) - 1) * PAGE_SIZE
    count = f"{first + 1}–{first + len(page.items)} of {page.total}" if page.items else "0 games"
    return body, count, cursors, page.next_cursor, len(cursors) <= 1, not page.next_cursor


def sort_by(clicks: Any, current: Any) -> Any:
    """A click on a column heading sorts by it, or flips the order when it already does."""
    trigger = ctx.triggered_id
    column = choice(trigger.get("sort"), SORTS) if isinstance(trigger, dict) else None
    clicked = isinstance(clicks, list) and any(integer(c, range(1, 2**31)) for c in clicks)
    if column is None or not clicked:
        return no_update
    current = choice(current, ORDERS, DEFAULT_SORT)
    if current.lstrip("-") == column:
        return column if current.startswith("-") else f"-{column}"
    return f"-{column}" if column in ("uploaded_at", "top_score", "actions", "players") else column


def register(app: Dash) -> None:
    """The library's callbacks."""
    from dash import ALL

    app.clientside_callback(
        CHECK_SIZE,
        Output("library-upload-checked", "data"),
        Output("library-upload-size", "children"),
        Output("library-upload", "contents", allow_duplicate=True),
        Output("library-upload-result", "children", allow_duplicate=True),
        Input("library-upload", "contents"),
        State("library-upload", "filename"),
        State("library-upload-limit", "data"),
        prevent_initial_call=True,
    )
    app.callback(
        Output("library-upload-result", "children"),
        Output("url", "pathname"),
        Output("url", "search", allow_duplicate=True),
        Output("library-upload", "contents"),
        Input("library-upload-checked", "data"),
        State("library-upload", "filename"),
        State("auth-token", "data"),
        prevent_initial_call=True,
    )(upload)
    app.callback(
        Output("library-table", "children"),
        Output("library-count", "children"),
        Output("library-cursors", "data"),
        Output("library-next", "data"),
        Output("library-prev", "disabled"),
        Output("library-next-page", "disabled"),
        Input("library-game", "value"),
        Input("library-player", "value"),
        Input("library-attribute", "value"),
        Input("library-players", "value"),
        Input("library-q", "value"),
        Input("library-tag", "value"),
        Input("library-winner", "value"),
        Input("library-sort", "value"),
        Input("library-prev", "n_clicks"),
        Input("library-next-page", "n_clicks"),
        Input("auth-token", "data"),
        State("library-cursors", "data"),
        State("library-next", "data"),
    )(refresh)
    app.callback(
        Output("library-attribute", "options"),
        Output("library-attribute", "style"),
        Input("library-game", "value"),
    )(_attribute_filter)
    app.callback(
        Output("library-sort", "value"),
        Input({"sort": ALL}, "n_clicks"),
        State("library-sort", "value"),
        prevent_initial_call=True,
    )(sort_by)
    query.keep(app, "library", FILTERS, address, follow, shared=True)
