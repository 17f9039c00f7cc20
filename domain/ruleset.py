"""The ruleset interface: what every game gives the store, the projections and both faces.

A game plugs into Howl by providing one object that satisfies :class:`Ruleset` and
registering it in :mod:`domain.games` under its record ``"game"`` name (the way
python-chess finds a variant class from a PGN header). Everything outside the game's own
package — the store, the projections, the API, the dashboard's frame — works through this
interface only: records and positions are read and written by it, its states are folded
from its events, its per-step :class:`StepFacts` feed the timelines and its
:class:`SeatScore` rows the summaries and statistics.

States, actions and events are the game's own types; the frame treats them as opaque
values and only hands them back to the same ruleset.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

if TYPE_CHECKING:
    from domain.statistics import Statistics

JSON = Any
"""A JSON-able value (dicts, lists, strings, numbers, booleans, None)."""
Stored = Mapping[str, JSON]
"""An event as the store keeps it: ``{"type": name, "data": {…fields}}``
(``Ruleset.encode_event``)."""


class InvalidRecord(ValueError):
    """A document that is not a well-formed record or position, with the JSON path at fault."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.message = message

    def to_json(self) -> dict[str, str]:
        """``{"error": "invalid_record", "path": "actions[12].hex", "message": …}``."""
        return {"error": "invalid_record", "path": self.path, "message": self.message}


class IllegalAction(Exception):
    """An action the rules forbid, with the rule id it breaks (``W-6.4``, ``M-3``)."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message


class Named(Protocol):
    """Anything with a player's name: a :class:`Seat`, a game's own player."""

    @property
    def name(self) -> str: ...


def seat_named(seat: int | None, players: Sequence[Named]) -> str:
    """A seat as messages name it: its number, counted from 0 as records count seats, and its
    player's name, as pages show it; ``None`` is The Wolves' automaton.

    >>> seat_named(1, (Seat("Ana", "green"), Seat("Bo", "blue"))), seat_named(None, ())
    ('seat 1 (Bo)', 'the automaton')
    """
    if seat is None:
        return "the automaton"
    return f"seat {seat} ({players[seat].name})" if 0 <= seat < len(players) else f"seat {seat}"


@dataclass(frozen=True, slots=True)
class Seat:
    """Who sits at a seat, as every game records it (a game may know more about a seat):
    ``bot`` names the computer player that played it (None: a person), ``bot_depth`` how
    deep it searched (a bot that searches)."""

    name: str
    color: str
    bot: str | None = None
    bot_depth: int | None = None


@dataclass(frozen=True, slots=True)
class SeatScore:
    """A seat's score now: the ``total`` that ranks it, its ``place`` (1 = first, shared on
    a tie) and the ``parts`` the total is made of, in the game's own words and order."""

    seat: int
    total: int
    place: int
    parts: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Milestone:
    """Something a timeline marks at a step: ``kind`` a stable key (``region_scored``,
    ``round_won``), ``text`` what a person reads, ``seats`` the seats it favours."""

    kind: str
    text: str
    seats: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class StepFacts:
    """What one step of a game shows: who acted and how, a readable label, whose turn it is
    after it (None once finished), the milestones it reached, every seat's score, and the
    game's own chart numbers (JSON-able, read only by the game's board view)."""

    player: int | None
    action: str | None
    label: str
    turn: int | None
    finished: bool
    scores: tuple[SeatScore, ...]
    milestones: tuple[Milestone, ...] = ()
    numbers: Mapping[str, JSON] = field(default_factory=dict)


@runtime_checkable
class GameRecord(Protocol):
    """A record as every ruleset reads it: who played, its metadata and its actions."""

    @property
    def players(self) -> Sequence[Any]: ...
    @property
    def meta(self) -> Mapping[str, str]: ...
    @property
    def actions(self) -> Sequence[Any]: ...


class Bot(Protocol):
    """A computer player: picks an action for the seat whose turn it is."""

    def choose(self, state: Any) -> Any: ...


class Ruleset(Protocol):
    """One game's rules, records and facts: the only thing the frame knows of a game."""

    name: str
    """The record's ``"game"`` (``the-wolves``, ``moonlight``): the registry key."""
    title: str
    """The game's name as people write it (``The Wolves``)."""
    rules_version: str
    """The version of the rules contract this engine implements (``wolves-2``)."""
    seats: range
    """How many seats a game may have."""

    @property
    def review(self) -> Review | None:
        """The game's review (coaching), None for a game with no review yet."""
        ...

    bots: Mapping[str, Callable[..., Bot]]
    """Computer players by name (``random``, ``heuristic``), weakest first, each built from a
    seed (a bot that searches also takes ``depth=``, 1 … 4)."""
    statistics: Statistics
    """What the game's summaries and statistics keep beyond every game's (its columns, filled
    from a game's events and end state) and how they are charted: see
    :mod:`domain.statistics`."""

    # --- records and positions ---------------------------------------------------------
    def read_record(self, doc: Mapping[str, JSON]) -> GameRecord:
        """The record a parsed ``howl.game`` document holds; ``InvalidRecord`` (with the JSON
        path) when it is not well formed."""
        ...

    def write_record(self, record: GameRecord) -> bytes:
        """The record's canonical JSON bytes (what names a stored game)."""
        ...

    def written_start(self, text: str) -> Any:
        """The state before the first action of a record this ruleset wrote and checked
        before (a stored one): may trust it and skip reading its actions."""
        ...

    def read_position(self, doc: Mapping[str, JSON]) -> Any:
        """The state a ``howl.position`` document holds; ``InvalidRecord`` when malformed."""
        ...

    def write_position(self, state: Any) -> dict[str, JSON]:
        """The state as a ``howl.position`` document."""
        ...

    def read_action(self, doc: JSON, path: str = "") -> Any:
        """One action in records.md form; ``InvalidRecord`` naming ``path`` when malformed."""
        ...

    def write_action(self, action: Any) -> dict[str, JSON]:
        """One action in records.md form."""
        ...

    # --- rules -------------------------------------------------------------------------
    def players(self, state: Any) -> tuple[Seat, ...]:
        """Who sits at each seat, in seat order."""
        ...

    def start(self, record: GameRecord) -> Any:
        """The state before the record's first action."""
        ...

    def play(self, state: Any, action: Any) -> tuple[Any, Sequence[Any]]:
        """The state after ``action`` and the events it caused (the action as settled plus
        everything the rules made happen); ``IllegalAction`` when the rules forbid it.
        ``state`` is left unchanged."""
        ...

    def evolve(self, state: Any, event: Any) -> Any:
        """The state after ``event``; ``state`` is left unchanged."""
        ...

    def fold(self, state: Any, events: Iterable[Any]) -> Any:
        """The state after every event in order; ``state`` is left unchanged."""
        ...

    def legal_actions(self, state: Any) -> Iterable[Any]:
        """Every action the rules allow now (none once the game is finished)."""
        ...

    def turn(self, state: Any) -> int | None:
        """The seat to act now; None once the game is finished."""
        ...

    def finished(self, state: Any) -> bool:
        """Whether the game is over."""
        ...

    def scores(self, state: Any) -> tuple[SeatScore, ...]:
        """Every seat's score now (final once finished), with its places."""
        ...

    def score_json(self, state: Any) -> dict[str, JSON]:
        """``howl score --json``: the scores in the document the game's contract gives."""
        ...

    def self_play(
        self, seats: int, bots: Sequence[str], seed: int, options: Mapping[str, JSON] | None = None
    ) -> GameRecord:
        """A whole game played by ``bots`` (one name per seat, from :attr:`bots`), the same
        game for the same arguments. ``options``: the setup's options as the game's records
        write them (``{"big_map": true}``), the game's defaults when None; ``InvalidRecord``
        for options the game does not have."""
        ...

    def describe(self, state: Any) -> str:
        """One line for people on where the game stands: whose turn it is and what they may
        do, or that it is over (``Moonlight date 3, Ana to act (2 actions left)``)."""
        ...

    # --- events ------------------------------------------------------------------------
    def encode_event(self, event: Any) -> tuple[str, dict[str, JSON]]:
        """An event as the store keeps it: its type name and its JSON fields."""
        ...

    def decode_event(self, kind: str, data: Mapping[str, JSON]) -> Any:
        """The event the store keeps as type ``kind`` and fields ``data``."""
        ...

    def follow(self, names: Sequence[str], start: Any) -> Follower:
        """A :class:`Follower` of one game from ``start`` (its seats named ``names``)."""
        ...

    def chart_item(self, key: str, item: JSON) -> JSON:
        """A chart number as timelines show it, from the form the follower gives it in
        (``StepFacts.numbers``): the number ``key`` itself or, for a list, each of its
        items. A follower may keep a number compact (a region's control as a list, ranked
        only when shown); a number shown as given is returned as it is."""
        ...


Depth = Literal["quick", "standard", "deep"]
"""How hard a review looks: ``quick`` (the least work), ``standard`` (the default) or
``deep`` (for a cluster)."""
DEPTHS: tuple[Depth, ...] = ("quick", "standard", "deep")
DEFAULT_DEPTH: Depth = "standard"


class ReviewSettings(Protocol):
    """What a review depends on besides the game (a frozen dataclass of numbers, stored as
    its fields); :attr:`key` names a stored result."""

    @property
    def key(self) -> str: ...


class ReviewResult(Protocol):
    """A whole game reviewed."""

    @property
    def players(self) -> Sequence[str]: ...

    def to_json(self) -> dict[str, JSON]:
        """The review as stored and served."""
        ...


class Review(Protocol):
    """A game's review as the frame uses it: who was winning, where it turned, what cost
    most, and how a what-if branch compares with its game."""

    thresholds: Sequence[tuple[str, float]]
    """(class, least loss in shares of a fair chance) pairs, worst class first."""
    turning_points: int
    """How many turning points a review shows at most."""

    def settings(self, **values: int) -> ReviewSettings:
        """Settings from their values (stored or asked for), the defaults for those not
        given; ``TypeError`` for a value the review does not have."""
        ...

    def depth(self, name: Depth) -> ReviewSettings:
        """The settings of the depth ``name`` (each deeper one more work than the last)."""
        ...

    def review(
        self, record: GameRecord, settings: ReviewSettings,
        progress: Callable[[int, int], None] | None = None,
        workers: int | Executor | None = None,
    ) -> ReviewResult:  # fmt: skip
        """Review a whole game; ``progress`` is called with (steps done, steps to do),
        ``workers`` processes share the steps (default: one per CPU), or an executor (a
        cluster's) takes one task per step."""
        ...

    def win(self, state: Any) -> tuple[float, ...]:
        """The static evaluator's win probability per seat."""
        ...

    def what_if(self, parent: GameRecord, step: int, actions: Sequence[Any]) -> dict[str, JSON]:
        """A branch of ``parent`` from ``step`` compared with it, as JSON (``original``,
        ``branch``, ``win_change``)."""
        ...

    def outcome(self, state: Any, actions: int) -> dict[str, JSON]:
        """The static evaluation of ``state``, reached after ``actions`` actions, as JSON
        (``win`` per seat rounded as stored: :meth:`win` unrounded)."""
        ...

    def practice_position(self, before: Any, played: Any) -> Any:
        """The position the mover chose ``played`` from, the state ``before`` it given."""
        ...

    def judge(
        self, at: Any, step: Mapping[str, JSON], settings: ReviewSettings, action: Any
    ) -> dict[str, JSON]:
        """Judge ``action`` at the practice position ``at`` of a stored review's ``step`` (its
        JSON, reviewed with ``settings``) as that review scored the actions there:
        ``accepted``, ``win``, ``loss``, ``threshold``, ``label``, ``best``, ``best_label``
        (``IllegalAction`` for an illegal one)."""
        ...

    def continuation(
        self, state: Any, plies: int, settings: ReviewSettings, index: int
    ) -> Sequence[Any]:
        """The next ``plies`` actions from ``state`` (fewer when the game ends first) as the
        review's own policy plays them, seeded by ``settings`` and ``index``, the action
        index of ``state``'s game it starts from (the same line every time)."""
        ...


class Follower(Protocol):
    """Follows one game step by step, from the events the store keeps, and tells what each
    step shows. It owns its copy of the state (and may change it in place)."""

    @property
    def state(self) -> Any:
        """The state after the steps taken so far (read only)."""
        ...

    def first(self) -> StepFacts:
        """The facts of step 0: the position before the first action."""
        ...

    def step(self, events: Sequence[Any]) -> StepFacts:
        """Take in the events of the next action; the facts of the step it makes.
        ``numbers`` holds the game's chart numbers that changed at this step (step 0 holds
        them all), in the form :meth:`Ruleset.chart_item` shows."""
        ...
