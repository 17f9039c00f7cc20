"""Board views: what the replay page shows of a game beyond its frame, found by game.

The replay page (:mod:`dashboard.pages.replay`) is the same for every game: the slider and
step controls, the step log, the score chart (a line per seat from the timeline's
``scores``, the view's milestones marked on it and on the slider), the margin chart, the
analysis (for a ruleset with a ``review``). Everything else is the game's board
view, registered here under its ruleset's name, as :mod:`domain.games` registers the
ruleset itself. A game without one is shown with :data:`PLAIN`: the frame alone.

A board view (:class:`BoardView`) gives, for a :class:`~dashboard.game.Game` (a stored
game with its ruleset, its first state, its timeline rows and its seats' names and
colours):

- ``data(game)``: the JSON the browser keeps of the game, sent once with the page (static
  parts and one entry per step, so that changing step asks the server nothing);
- ``board(game)``: the board, under the advice line of the left column (or None);
- ``panels(game)``: components on top of the right column (the seats' boards…);
- ``charts(game)``: more timeline charts under the score chart, as ``(id, figure)``;
- ``score``: how the score chart names and breaks down the score
  (:class:`~dashboard.charts.ScoreChart`);
- ``marked(game)``: the milestones marked on the charts and the slider, as ``(step, label)``
  (labels short enough to stand side by side under the slider);
- ``script``: the name its renderer is registered under in the browser: a script in
  ``dashboard/assets/boards/`` sets ``window.howlBoards[script] = {draw, resize}``, where
  ``draw(game, step)`` draws step ``step`` into the view's components (``game`` is the
  page's data, the view's own under ``game.board``; ``window.howlReplay`` offers the
  frame's helpers: ``esc``, ``flagged``, ``untilDone``) and ``resize(game, step)``
  (optional) redraws after the window's size changed.

A game whose live tables have a clickable board registers it too (:class:`TableBoard`,
:func:`register_table`): the table page (:mod:`dashboard.pages.table`) shows it, and the
position's fields for a game without one. A game that can be set up at a table registers a
set-up view (:class:`SetupView`,
:func:`register_setup`): the New game page (:mod:`dashboard.pages.new`) shows it.

A view's component ids must not be the frame's: ``replay``, ``replay-data``,
``replay-tick``, ``replay-first``/``-prev``/``-play``/``-next``/``-last``, ``replay-speed``,
``replay-step``, ``replay-label``, ``replay-slider``, ``replay-advice``, ``replay-log``,
``replay-margin``, ``replay-win``, ``replay-analysis``, ``analysis-…`` and its score chart's
id (with ``-cursor`` appended, each chart's cursor).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from dash.development.base_component import Component

from dashboard.charts import Marks, ScoreChart, milestones
from domain.ruleset import StepFacts

if TYPE_CHECKING:
    from dashboard.game import Game


class BoardView(Protocol):
    """What the replay page shows of one game besides its frame (see the module's text)."""

    game: str
    script: str
    score: ScoreChart

    def marked(self, game: Game) -> Marks: ...
    def data(self, game: Game) -> dict[str, Any]: ...
    def board(self, game: Game) -> Component | None: ...
    def panels(self, game: Game) -> list[Component]: ...
    def charts(self, game: Game) -> list[tuple[str, dict[str, Any]]]: ...


class Plain:
    """The frame alone: no board, no panels, every milestone marked."""

    game = ""
    script = ""
    score = ScoreChart()

    def marked(self, game: Game) -> Marks:
        return milestones(game.rows, None)

    def data(self, game: Game) -> dict[str, Any]:
        return {}

    def board(self, game: Game) -> Component | None:
        return None

    def panels(self, game: Game) -> list[Component]:
        return []

    def charts(self, game: Game) -> list[tuple[str, dict[str, Any]]]:
        return []


PLAIN = Plain()
"""The view of a game that has none of its own."""


class TableBoard(NamedTuple):
    """A game's clickable board on the table page: from the state at the start, its map
    (``board``) and the static data its script draws positions with (``data``); then where
    a wolf an action pushes may go when the player chooses (``pushes``), the payments the
    script shows for what the legal actions list without one (``pays``: The Wolves' Move)
    and every seat's score as the player boards show it (``scores``, from a step's facts)."""

    game: str
    board: Callable[[Any], Component]
    data: Callable[[Any], dict[str, Any]]
    pushes: Callable[[Any, dict[str, Any]], dict[str, Any] | None]
    pays: Callable[[Any], dict[str, Any]]
    scores: Callable[[StepFacts], list[list[int]]]


class SetupView(Protocol):
    """A game's New game form (``/new``): its layout and its callbacks; ``GAME`` names its
    ruleset."""

    GAME: str

    def layout(self) -> Component: ...
    def register(self, app: Any) -> None: ...


_VIEWS: dict[str, BoardView] = {}
_SETUPS: dict[str, SetupView] = {}
_TABLES: dict[str, TableBoard] = {}


def register(view: BoardView) -> BoardView:
    """Make ``view`` the board view of the games whose ruleset is named ``view.game``."""
    _VIEWS[view.game] = view
    return view


def unregister(game: str) -> None:
    """Forget the board view of ``game`` (a test's own game)."""
    _VIEWS.pop(game, None)


def register_table(board: TableBoard) -> TableBoard:
    """Make ``board`` the table page's board of the games whose ruleset is ``board.game``."""
    _TABLES[board.game] = board
    return board


def table_board(game: str) -> TableBoard | None:
    """The table page's board of the ruleset named ``game`` (None when it has none)."""
    return _TABLES.get(game)


def register_setup(setup: SetupView) -> SetupView:
    """Make ``setup`` the set-up view of the games whose ruleset is named ``setup.GAME``."""
    _SETUPS[setup.GAME] = setup
    return setup


def setups() -> list[SetupView]:
    """Every registered set-up view, in the order registered."""
    return list(_SETUPS.values())


def view(game: str) -> BoardView:
    """The board view of the ruleset named ``game`` (:data:`PLAIN` when it has none)."""
    return _VIEWS.get(game, PLAIN)


def _register_builtin() -> None:
    from dashboard.boards import wolves_new
    from dashboard.boards.moonlight import MOONLIGHT
    from dashboard.boards.wolves import TABLE, WOLVES

    register(WOLVES)
    register(MOONLIGHT)
    register_table(TABLE)
    register_setup(wolves_new)


_register_builtin()
