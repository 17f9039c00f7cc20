"""marshmallow schemas of the API's parameters and answers; the OpenAPI document is made
from them.

Answers that mirror an open format (positions, events, timeline rows) are *open*: fields
not listed here may appear (``additionalProperties``), as records.md allows.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, date, datetime
from typing import Any
from urllib.parse import unquote_to_bytes

import marshmallow as ma
from marshmallow import fields, validate

from domain.bounds import INT32_MAX, text_problem
from domain.documents import PLAYED_DAYS
from domain.games import UnknownGame, ruleset, rulesets
from domain.ruleset import DEPTHS
from domain.store.game import MAX_TAGS
from projections.filters import check_option, player_counts, resolve, seat_attributes
from projections.games import sort_names

MAX_PAGE = 100
"""Largest page of ``GET /api/games``."""
MAX_EVENTS_PAGE = 1000
"""Largest page of ``GET /api/games/{id}/events``."""
SEATS = player_counts()
"""The player counts a filter may ask for: any registered game's."""


class Open(ma.Schema):
    """A documented object that may carry more fields than it lists."""

    class Meta:
        unknown = ma.INCLUDE


class Problem(Open):
    """An RFC 9457 problem; record errors add ``index``/``action``/``rule``/``message`` or
    ``path``/``message``."""

    type = fields.String(required=True, metadata={"description": "`about:blank` or a link to "
                                                  "the problem kind on /api/docs"})  # fmt: skip
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(required=True)
    index = fields.Integer(metadata={"description": "illegal_action: the offending action's index"})
    action = fields.Dict(metadata={"description": "illegal_action: the offending action"})
    rule = fields.String(metadata={"description": "illegal_action: the rule broken, e.g. W-6.4"})
    message = fields.String(metadata={"description": "record errors: what is wrong"})
    path = fields.String(metadata={"description": "invalid_record: JSON path, e.g. actions[3].hex"})
    limit = fields.Integer(metadata={"description": "too_many_actions / unknown_step: the limit"})
    errors = fields.Dict(metadata={"description": "invalid_parameters: messages per parameter"})


ProblemSchema = Problem


# --- parameters ----------------------------------------------------------------------------


EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
LATEST = datetime(9999, 12, 30, tzinfo=UTC)
"""The upload times ``since``/``until`` may name (a date ``until`` reaches a day further)."""
MAX_OFFSET = INT32_MAX
"""Largest ``from`` of an events page: what both databases store as an integer."""
MAX_NAME = 200
"""Longest player name a parameter may carry."""
MAX_TAG = MAX_TAGS
"""Longest tag a parameter may carry (an upload's tags, together, are no longer)."""


class DateOrDateTime(fields.DateTime):
    """An ISO date (``2026-11-20``) or date-time (UTC when it names no offset), from
    :data:`EARLIEST` to :data:`LATEST`."""

    default_error_messages = {"range": f"Must be from {EARLIEST:%Y-%m-%d} to {LATEST:%Y-%m-%d}."}

    def _deserialize(  # type: ignore[override]  # a date, too
        self, value: Any, attr: str | None, data: Any, **kwargs: Any
    ) -> date | datetime:
        if isinstance(value, str) and len(value) == 10:
            try:
                day = date.fromisoformat(value)
            except ValueError:
                raise self.make_error("invalid", input=value, obj_type="date") from None
            if not EARLIEST.date() <= day <= LATEST.date():
                raise self.make_error("range")
            return day
        moment = super()._deserialize(value, attr, data, **kwargs)
        moment = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
        try:
            if EARLIEST <= moment.astimezone(UTC) <= LATEST:
                return moment
        except OverflowError:
            pass
        raise self.make_error("range")


TEXT_RULE = "Must be UTF-8 text without NUL characters."


def _text(raw: bytes) -> str | None:
    """``raw`` as text, or None when it is not UTF-8 or holds a NUL."""
    try:
        text = raw.decode()
    except UnicodeDecodeError:
        return None
    return None if "\x00" in text else text


def _raw_path(environ: Mapping[str, Any]) -> bytes:
    """The request path's bytes, percent-decoded: from the raw request line when the server
    kept it (werkzeug's ``RAW_URI`` or ``REQUEST_URI``), else ``PATH_INFO`` (where granian,
    under ``howl serve``, has already replaced bytes that are not UTF-8 by U+FFFD)."""
    raw = environ.get("RAW_URI") or environ.get("REQUEST_URI")
    if isinstance(raw, bytes):
        return unquote_to_bytes(raw.partition(b"?")[0])
    if raw:
        return unquote_to_bytes(raw.partition("?")[0])
    path: str = environ.get("PATH_INFO", "")
    try:
        return path.encode("latin-1")  # WSGI gives the path's bytes as latin-1
    except UnicodeEncodeError:
        return path.encode(errors="surrogatepass")


def text_errors(environ: Mapping[str, Any]) -> dict[str, dict[str, list[str]]]:
    """webargs-style errors for a request whose path or query parameters are not UTF-8 text
    or hold a NUL (``%00``, ``%ED%A0%80``): they could name nothing stored, and PostgreSQL
    cannot even be asked about them.

    >>> text_errors({"RAW_URI": "/api/players/Ana?player=Bo&limit=2"})
    {}
    >>> text_errors({"PATH_INFO": "/api/players/\xed\xa0\x80", "QUERY_STRING": "player=%00"})
    {'path': {'path': ['Must be UTF-8 text without NUL characters.']}, \
'query': {'player': ['Must be UTF-8 text without NUL characters.']}}
    """
    errors: dict[str, dict[str, list[str]]] = {}
    if _text(_raw_path(environ)) is None:
        errors["path"] = {"path": [TEXT_RULE]}
    query = environ.get("QUERY_STRING", "").encode("latin-1", errors="replace")
    for pair in filter(None, query.split(b"&")):
        name, _, value = (unquote_to_bytes(p.replace(b"+", b" ")) for p in pair.partition(b"="))
        if _text(value) is None or _text(name) is None:
            key = _text(name) or name.decode(errors="replace").replace("\x00", "\\x00")
            errors.setdefault("query", {})[key[:MAX_NAME]] = [TEXT_RULE]
    return errors


def check_game(value: str) -> None:
    """A registered game's name."""
    try:
        ruleset(value)
    except UnknownGame as exc:
        raise ma.ValidationError(exc.message) from None


def _when(description: str) -> DateOrDateTime:
    return DateOrDateTime(metadata={"description": description})


def plain_text(value: str) -> None:
    """Refuse text holding a NUL or a lone surrogate (it could not be stored)."""
    problem = text_problem(value, len(value))
    if problem is not None:
        raise ma.ValidationError(f"Must be plain text: this {problem}.")


class StatsFilters(ma.Schema):
    """Filters shared by the game list and the statistics."""

    game = fields.String(
        validate=[validate.Length(1, 100), check_game],
        metadata={"description": "a game's name (`\"game\"` of its records): default every "
                  "game, or the one game the options and seat attributes asked for are of"},
    )  # fmt: skip
    players = fields.Integer(
        validate=validate.Range(SEATS.start, SEATS.stop - 1),
        metadata={"description": "player count"},
    )
    option = fields.String(
        validate=validate.Length(1, 200),
        metadata={"description": "a game's setup options: one in use (`big_map`), one with a "
                  "value (`stall_limit_rounds=10`) or `standard` (all at their defaults); "
                  "commas: all of them"},
    )  # fmt: skip
    since = _when(
        "played (the record's meta.played_on, else uploaded) at or after: an ISO "
        "date (from that day on) or date-time"
    )
    until = _when("played before: an ISO date (to that day's end) or date-time")
    player = fields.String(
        validate=validate.Length(1, MAX_NAME), metadata={"description": "a seat's name"}
    )
    tag = fields.String(
        validate=[validate.Length(1, MAX_TAG), plain_text],
        metadata={"description": "games with this tag"},
    )
    q = fields.String(
        validate=[validate.Length(1, MAX_NAME), plain_text],
        metadata={"description": "games whose title or a seat's name holds this text (case "
                  "ignored)"},
    )  # fmt: skip

    @ma.validates_schema
    def _game_filters(self, data: dict[str, Any], **_: Any) -> None:
        """The options and seat attributes asked for are those of one game."""
        attributes = {k: data[k] for k in ATTRIBUTES if data.get(k) is not None}
        try:
            if data.get("option"):
                check_option(data["option"], data.get("game"))
            resolve(data.get("game"), data.get("option"), attributes)
        except ValueError as exc:
            field = "option" if data.get("option") else next(iter(attributes), "game")
            raise ma.ValidationError(str(exc), field) from None


ATTRIBUTES = seat_attributes()


class _ListFilters(StatsFilters):
    winner = fields.String(
        validate=validate.Length(1, MAX_NAME), metadata={"description": "the winner's name"}
    )
    sort = fields.String(
        load_default="-uploaded_at",
        validate=validate.OneOf([f"{d}{c}" for c in sort_names() for d in ("", "-")]),
        metadata={"description": "a column, `-` first for descending (`top_score` is also "
                  "`top_` and a game's name for its score: `top_vp`; `names`: the seats' "
                  "names in seat order, `winner`: the winners', a game without one first; "
                  "names' case and accents ignored)"},
    )  # fmt: skip
    cursor = fields.String(
        validate=validate.Length(1, 4000),
        metadata={"description": "`next_cursor` of the previous page"},
    )
    limit = fields.Integer(
        load_default=50, validate=validate.Range(1, MAX_PAGE), metadata={"description": "page size"}
    )


GameFilters = _ListFilters.from_dict(
    {
        name: fields.String(
            validate=validate.OneOf(values) if values else validate.Length(1, MAX_NAME),
            metadata={"description": f"a seat's {label} (a seat attribute of a game)"},
        )
        for name, (label, values) in ATTRIBUTES.items()
    },
    name="GameFilters",
)
"""``GET /api/games``: filters (with each game's seat attribute), sort and cursor pagination."""


class EventsQuery(ma.Schema):
    """``GET /api/games/{id}/events``: a page of the stored events."""

    start = fields.Integer(
        data_key="from", load_default=0, validate=validate.Range(0, MAX_OFFSET),
        metadata={"description": "first event's `seq` (0-based)"},
    )  # fmt: skip
    limit = fields.Integer(load_default=200, validate=validate.Range(1, MAX_EVENTS_PAGE))


class UploadFields(ma.Schema):
    """Metadata of an upload, as query parameters or multipart form fields."""

    title = fields.String(validate=[validate.Length(max=200), plain_text],
                          metadata={"description": "default: the record's meta.title"})  # fmt: skip
    tags = fields.String(validate=[validate.Length(max=1000), plain_text],
                         metadata={"description": "comma-separated tags"})  # fmt: skip
    visibility = fields.String(
        load_default="public", validate=validate.OneOf(["public", "private"]),
        metadata={"description": "`private` games are left out of lists and statistics"},
    )  # fmt: skip


class GameChanges(ma.Schema):
    """``PATCH /api/games/{id}``: the metadata to change; a field left out stays as it is."""

    title = fields.String(
        allow_none=True, validate=[validate.Length(max=200), plain_text],
        metadata={"description": "the new title (null or blank: no title)"},
    )  # fmt: skip
    tags = fields.List(
        fields.String(validate=[validate.Length(1, MAX_TAG), plain_text]),
        validate=validate.Length(max=50), metadata={"description": "the tags, replacing all"},
    )  # fmt: skip
    visibility = fields.String(
        validate=validate.OneOf(["public", "private"]),
        metadata={"description": "`private` games are left out of lists and statistics"},
    )  # fmt: skip
    played_on = fields.Date(
        allow_none=True, validate=validate.Range(*PLAYED_DAYS),
        metadata={"description": "the day it was played (`YYYY-MM-DD`, over its record's "
                  "`meta.played_on`; null: not known, so its upload's day): ratings and "
                  "date filters follow it"},
    )  # fmt: skip

    @ma.validates_schema
    def _something(self, data: dict[str, Any], **_: Any) -> None:
        """A change names at least one field; its tags are no longer than an upload's."""
        if not data:
            raise ma.ValidationError("Give at least one of title, tags, visibility, played_on.")
        tags = data.get("tags") or ()
        if len(",".join(tags)) > MAX_TAG:
            raise ma.ValidationError(f"Longer than {MAX_TAG} characters in all.", "tags")
        if any("," in tag or not tag.strip() for tag in tags):
            raise ma.ValidationError("A tag is not blank and holds no comma.", "tags")


# --- answers -------------------------------------------------------------------------------


class Seat(Open):
    """One seat of a game summary: who, the score and place, and the game's own fields
    (its ruleset's statistics shape them: a seat attribute, the score's parts, counts)."""

    seat = fields.Integer(required=True)
    name = fields.String(required=True)
    color = fields.String()
    total = fields.Integer(required=True, metadata={"description": "final (or current) score"})
    place = fields.Integer(required=True)
    winner = fields.Boolean()
    started = fields.Boolean(
        allow_none=True, metadata={"description": "the seat that started (null: the game has "
                                   "no starting seat)"},
    )  # fmt: skip


def _options() -> dict[str, fields.Field]:
    out: dict[str, fields.Field] = {}
    for rules in rulesets():
        for option in rules.statistics.options:
            about = {"description": f"an option of {rules.title}"}
            out.setdefault(option.name, fields.Boolean(metadata=about) if option.flag else
                           fields.Integer(allow_none=True, metadata=about))  # fmt: skip
    return out


GameOptions = Open.from_dict(_options(), name="GameOptions")
"""The game's setup options, as its ruleset declares them."""


class GameSummary(Open):
    """A game's summary: its game, metadata, setup options, result and seats (and the game's
    own columns)."""

    game_id = fields.UUID(required=True)
    game = fields.String(required=True, metadata={"description": "the game's name"})
    title = fields.String(required=True, allow_none=True)
    tags = fields.List(fields.String(), required=True)
    visibility = fields.String(required=True, validate=validate.OneOf(["public", "private"]))
    uploaded_at = fields.DateTime(required=True)
    played_at = fields.DateTime(
        metadata={"description": "when it was played: its record's `meta.played_on` (midnight "
                  "UTC) when that names a day, else its upload (left out until projected)"},
    )  # fmt: skip
    uploaded_by = fields.String(required=True, allow_none=True)
    rules_version = fields.String()
    players = fields.Integer(required=True, metadata={"description": "player count"})
    options = fields.Nested(GameOptions, required=True)
    turns = fields.Integer()
    actions = fields.Integer(required=True)
    events = fields.Integer()
    finished = fields.Boolean(required=True)
    end_reason = fields.String(allow_none=True)
    top_score = fields.Integer(
        metadata={"description": "the highest total; also `top_` and the game's name for its "
                  "score (`top_vp`)"},
    )  # fmt: skip
    winners = fields.List(fields.String(), required=True)
    seats = fields.List(
        fields.Nested(Seat), required=True,
        metadata={"description": "one per seat (in lists: seat, name, color, total, place and "
                  "the game's seat attribute only)"},
    )  # fmt: skip


class GameList(ma.Schema):
    """One page of games."""

    items = fields.List(fields.Nested(GameSummary), required=True)
    next_cursor = fields.String(required=True, allow_none=True,
                                metadata={"description": "null on the last page"})  # fmt: skip
    total = fields.Integer(required=True, metadata={"description": "games matching the filters"})


class StoredEvent(Open):
    """A domain event as stored: ``seq`` its place in the game, ``step`` its action's index
    (0-based), ``type`` and the event's own fields."""

    seq = fields.Integer(required=True)
    step = fields.Integer(required=True)
    type = fields.String(required=True)


class EventPage(ma.Schema):
    """A page of a game's events."""

    game_id = fields.UUID(required=True)
    start = fields.Integer(required=True, data_key="from")
    limit = fields.Integer(required=True)
    total = fields.Integer(required=True, metadata={"description": "events the game has"})
    next = fields.Integer(
        required=True, allow_none=True,
        metadata={"description": "`from` of the next page; null at the end"},
    )  # fmt: skip
    items = fields.List(fields.Nested(StoredEvent), required=True)


class Position(Open):
    """A position in the ``howl.position`` format: its header names the game, whose ruleset
    writes the rest in the game's own terms (records.md for The Wolves)."""

    format = fields.String(required=True, validate=validate.Equal("howl.position"))
    version = fields.Integer(required=True)
    game = fields.String(required=True, metadata={"description": "the game's ruleset's name"})
    players = fields.List(fields.Dict(), metadata={"description": "the seats, in order"})


class Score(Open):
    """A seat's score at one step: the total that ranks it, its place (1 = first, shared on
    a tie) and the parts the total is made of, in the game's own words."""

    seat = fields.Integer(required=True)
    total = fields.Integer(required=True)
    place = fields.Integer(required=True)
    parts = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)


class Milestone(Open):
    """Something a step reached: a stable ``kind`` (``region_scored``, ``round_won``,
    ``game_ended``…), what a person reads, the seats it favours."""

    kind = fields.String(required=True)
    text = fields.String(required=True)
    seats = fields.List(fields.Integer(), required=True)


class TimelineRow(Open):
    """The timeline at one step (0: before the first action): who acted and how, whose turn
    it is after it, every seat's score and the milestones it reached. The game's own chart
    numbers are further fields (The Wolves: ``vp``, ``control``, ``moonlight``,
    ``next_phase``, ``scoring``)."""

    step = fields.Integer(required=True)
    player = fields.Integer(required=True, allow_none=True)
    type = fields.String(required=True, allow_none=True)
    label = fields.String(required=True)
    turn = fields.Integer(required=True, allow_none=True)
    finished = fields.Boolean(required=True)
    scores = fields.List(fields.Nested(Score), required=True)
    milestones = fields.List(fields.Nested(Milestone), required=True)


class Timeline(ma.Schema):
    """A game's per-step series."""

    game_id = fields.UUID(required=True)
    steps = fields.List(fields.Nested(TimelineRow), required=True)


CLASSIFICATIONS = ("inaccuracy", "mistake", "blunder")
ANALYSIS_STATUSES = ("none", "queued", "running", "done", "failed")
WinList = fields.List(fields.Float(), metadata={"description": "win probability per seat"})


class ReviewStep(Open):
    """One action reviewed: the mover's win probability with the best action found and with
    the one played, the loss, and its class."""

    index = fields.Integer(required=True, metadata={"description": "the action's index"})
    step = fields.Integer(required=True, metadata={"description": "the step it leads to"})
    seat = fields.Integer(required=True)
    action = fields.Dict(required=True, metadata={"description": "records.md action"})
    label = fields.String(required=True)
    win_before = fields.Float(required=True)
    win_after = fields.Float(required=True)
    loss = fields.Float(required=True)
    classification = fields.String(
        required=True, allow_none=True, validate=validate.OneOf(CLASSIFICATIONS),
        metadata={"description": "null: a good action, or no choice"},
    )  # fmt: skip
    accuracy = fields.Float(required=True, allow_none=True)
    best = fields.Dict(allow_none=True, metadata={"description": "the best action found, "
                       "when better than the one played"})  # fmt: skip


class Review(Open):
    """A game's review: win-probability graph, per-action review, turning points, seats."""

    settings = fields.Dict(required=True)
    players = fields.List(fields.String(), required=True)
    graph = fields.List(fields.Dict(), required=True, metadata={"description": "per step: "
                        "`step` and `win` per seat"})  # fmt: skip
    steps = fields.List(fields.Nested(ReviewStep), required=True)
    turning_points = fields.List(fields.Dict(), required=True)
    seats = fields.List(fields.Dict(), required=True, metadata={"description": "accuracy and "
                        "classes per seat"})  # fmt: skip
    thresholds = fields.Dict(required=True)


class DepthChoice(ma.Schema):
    """A review's depth: which one ``GET /api/games/{id}/analysis`` shows (a query
    parameter), or ``POST`` asks for (its JSON body, which may be left out)."""

    depth = fields.String(validate=validate.OneOf(DEPTHS), metadata={
        "description": "`quick`, `standard` or `deep` (default: the server's, "
                       "`HOWL_ANALYSIS_DEPTH`)",
    })  # fmt: skip


class Analysis(ma.Schema):
    """The state of a game's review by the background worker."""

    game_id = fields.UUID(required=True)
    depth = fields.String(required=True, allow_none=True, validate=validate.OneOf(DEPTHS),
                          metadata={"description": "the depth whose settings the review has "
                                    "(null: settings of no depth)"})  # fmt: skip
    status = fields.String(
        required=True, validate=validate.OneOf(ANALYSIS_STATUSES),
        metadata={"description": "`none`: not asked for (with these settings)"},
    )  # fmt: skip
    progress = fields.Float(required=True, validate=validate.Range(0, 1))
    settings_key = fields.String(required=True, metadata={"description": "names the settings "
                                 "and evaluator the review is made with"})  # fmt: skip
    result = fields.Nested(Review, required=True, allow_none=True,
                           metadata={"description": "the review once `done`"})  # fmt: skip
    error = fields.String(required=True, allow_none=True,
                          metadata={"description": "why a `failed` review failed"})  # fmt: skip


def _action_list(value: Any) -> None:
    """A non-empty JSON array: its entries are read as actions once their count is checked
    against ``HOWL_MAX_ACTIONS`` (reading a huge list entry by entry here would cost more)."""
    if not isinstance(value, list) or not value:
        raise ma.ValidationError("A non-empty list of action objects.")


class BranchRequest(ma.Schema):
    """A what-if branch: leave the game after ``step`` actions and play ``actions``."""

    step = fields.Integer(required=True, validate=validate.Range(0, MAX_OFFSET),
                          metadata={"description": "actions of the game kept"})  # fmt: skip
    actions = fields.Raw(required=True, validate=_action_list, metadata={
        "type": "array", "items": {"type": "object"}, "minItems": 1,
        "description": "records.md action objects, read once their count is checked",
    })  # fmt: skip


class Outcome(Open):
    """Where a line of play stands: its actions, scores and evaluation."""

    actions = fields.Integer(required=True, metadata={"description": "actions played"})
    finished = fields.Boolean(required=True)
    scores = fields.List(fields.Dict(), required=True, metadata={"description": "final (or "
                         "current) score and breakdown per seat"})  # fmt: skip
    win = WinList
    vp = fields.List(fields.Float(), metadata={"description": "expected final VP per seat"})


class Comparison(ma.Schema):
    """A branch against its game: both ends, and the game after as many actions as the branch."""

    original = fields.Nested(Outcome, required=True, metadata={"description": "the game's end"})
    branch = fields.Nested(Outcome, required=True, metadata={"description": "the branch's end"})
    original_same_step = fields.Nested(
        Outcome, required=True,
        metadata={"description": "the game after as many actions as the branch (or its end)"},
    )  # fmt: skip
    win_change = fields.List(fields.Float(), required=True,
                             metadata={"description": "branch − original, per seat"})  # fmt: skip
    win_change_same_step = fields.List(
        fields.Float(), required=True,
        metadata={"description": "branch − original_same_step, per seat"},
    )  # fmt: skip


class BranchInfo(ma.Schema):
    """A stored what-if branch and its comparison with the game it leaves."""

    branch_id = fields.UUID(required=True)
    parent_id = fields.UUID(required=True)
    step = fields.Integer(required=True, metadata={"description": "actions kept of the parent"})
    actions = fields.List(fields.Dict(), required=True, metadata={"description": "the "
                          "branch's own actions"})  # fmt: skip
    steps = fields.Integer(required=True, metadata={"description": "the branched game's last "
                           "step (`step` + its actions)"})  # fmt: skip
    game = fields.String(required=True, metadata={"description": "the game's ruleset's name"})
    rules_version = fields.String(required=True)
    comparison = fields.Nested(Comparison, required=True, allow_none=True, metadata={
        "description": "null for a game Howl has no review for yet",
    })  # fmt: skip


class Health(ma.Schema):
    """The service and its store answer."""

    status = fields.String(
        required=True, validate=validate.OneOf(["ok", "degraded"]),
        metadata={"description": "`degraded`: some games could not be projected (`failures`)"},
    )  # fmt: skip
    backend = fields.String(required=True, validate=validate.OneOf(["sqlite", "postgresql"]))
    version = fields.String(required=True)
    failures = fields.Integer(
        metadata={"description": "games left out of the read models because projecting them "
                  "failed (`howl projections failures` lists them)"},
    )  # fmt: skip
    store = fields.String(
        metadata={"description": "`cannot write (full)` or `cannot write (read-only)` after "
                  "a write failed so, until one succeeds"},
    )  # fmt: skip
