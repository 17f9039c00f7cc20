"""``ReadModels``: timelines, game summaries and statistics kept in the store's database.

Built from the event store's notification log and rebuildable at any time; the API and
the dashboard read games through this one class. Call :meth:`ReadModels.catch_up` after
storing something to read it back at once.

>>> import tempfile
>>> from domain.store import GameLibrary
>>> url = f"sqlite:///{tempfile.mkdtemp()}/howl.sqlite3"
>>> with GameLibrary.open(url) as library:
...     models = ReadModels(url)
...     models.catch_up(library), models.list_games().total
(0, 0)
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID

from domain.games import FIRST
from domain.players import Aliases
from projections import aliases, games, statistics, tables
from projections import ratings as leagues
from projections.db import Database
from projections.filters import game_filters, resolve
from projections.games import GamePage
from projections.runner import BATCH, Failure, Progress, Runner

if TYPE_CHECKING:
    from domain.store import GameLibrary

__all__ = ["Failure", "GamePage", "Progress", "ReadModels"]


class ReadModels:
    """The read models of the games stored at ``url`` (the store's own database).

    Tables are created on first use (and rebuilt when their layout changed). ``schema``
    names the PostgreSQL schema, as for the store (ignored for SQLite). ``batch_size``
    is how many notifications one transaction projects; ``workers`` > 1 folds games in
    that many processes; ``delay`` pauses after each game written (seconds; for tests
    that stop a runner mid-batch).
    """

    def __init__(
        self,
        url: str,
        schema: str | None = None,
        *,
        pool_size: int = 5,
        batch_size: int = BATCH,
        delay: float = 0.0,
        workers: int = 1,
    ) -> None:
        self.db = Database(url, schema or "public", pool_size)
        self.runner = Runner(self.db, batch_size, delay, workers)
        self.rebuilder = Runner(self.db, batch_size, delay, workers, tables.BESIDE)
        self._ready = False
        self._lock = threading.Lock()

    def close(self) -> None:
        """Close pooled connections (later calls open new ones)."""
        self.db.close()

    def __enter__(self) -> ReadModels:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def ready(self) -> bool:
        """Whether the tables were made (or found made) already."""
        return self._ready

    def ensure(self) -> None:
        """Make the tables when missing (or of another version): at once on first use, then
        nothing."""
        if not self._ready:
            tables.ensure(self.db)
            self._ready = True

    def _db(self) -> Any:
        self.ensure()
        return self.db

    # --- projecting ---------------------------------------------------------------------

    def catch_up(self, library: GameLibrary, progress: Progress | None = None) -> int:
        """Project the notifications not yet seen; returns how many were processed.

        Safe to call from many threads and processes at once: each notification is
        projected once, in the same transaction that records the log position.
        """
        self._db()
        with self._lock:
            return self.runner.catch_up(library, progress)

    @contextmanager
    def catching_up(self) -> Iterator[None]:
        """Around a catch-up of the live tables made on this process's behalf (by a pool
        process, say): the processes that share these read models take turns, so that
        none folds the games another is writing (each would be a wasted fold, the losing
        runner starting again from the winner's position)."""
        with self._db().turn("catch-up"):
            yield

    def rebuild(self, library: GameLibrary, progress: Progress | None = None) -> int:
        """Project the whole log again into tables beside the live ones, then swap them in
        (with their log position) in one transaction; returns the notifications projected.

        Readers keep reading the live tables until the swap, and the runners catching up
        the live tables go on from the rebuilt position after it.
        """
        self._db()
        tables.prepare(self.db, tables.BESIDE)
        done = self.rebuilder.catch_up(library, progress)
        done += self.rebuilder.catch_up(library)  # what was stored meanwhile
        tables.swap(self.db, tables.BESIDE)
        return done

    def position(self) -> int:
        """The id of the last notification the read models include (0: none)."""
        return tables.position(self._db())

    def state(self) -> tuple[int, int]:
        """Where the read models stand: their position and how many games failed (what
        they answer changes only when one of them does)."""
        return tables.state(self._db())

    def failures(self) -> list[Failure]:
        """The games left out of the read models because they could not be projected,
        in log order."""
        columns = ", ".join(tables.FAILURE_COLUMNS)
        rows = self._db().fetchall(f"SELECT {columns} FROM {tables.FAILURES} ORDER BY position")
        return [Failure(*row) for row in rows]

    def failure_count(self) -> int:
        """How many games could not be projected."""
        return int(self._db().fetchall(f"SELECT COUNT(*) FROM {tables.FAILURES}")[0][0])

    def failure(self, game_id: UUID) -> Failure | None:
        """Why this game is not in the read models, if it failed."""
        columns = ", ".join(tables.FAILURE_COLUMNS)
        rows = self._db().fetchall(
            f"SELECT {columns} FROM {tables.FAILURES} WHERE game_id = ?", (str(game_id),)
        )
        return Failure(*rows[0]) if rows else None

    def retry(self, library: GameLibrary) -> tuple[list[str], list[Failure]]:
        """Project the failed games again: the ids of those that now project, and the
        failures that remain."""
        self._db()
        with self._lock:
            return self.runner.retry(library)

    # --- reading ------------------------------------------------------------------------

    def list_games(
        self,
        *,
        game: str | None = None,
        player: str | None = None,
        players: int | None = None,
        winner: str | None = None,
        option: str | None = None,
        since: date | datetime | None = None,
        until: date | datetime | None = None,
        tag: str | None = None,
        q: str | None = None,
        sort: str = "-uploaded_at",
        cursor: str | None = None,
        limit: int = 50,
        include_private: bool = False,
        viewer: str | None = None,
        **attributes: str | None,
    ) -> GamePage:
        """Game summaries matching every filter given, one page; seats in brief.

        ``game`` is a ruleset's name (default: every game, or the one game the options
        and attributes asked for are of); ``player`` and ``winner`` match a seat (names
        ignore case and accents), ``attributes`` a seat's attribute (``terrain="tundra"``);
        ``option`` is ``big_map``, ``stall_limit_rounds=10``, ``standard`` … (commas:
        all of them); ``since`` ≤ upload time < ``until`` (a date ``until`` includes
        that day); ``tag`` keeps the games with that tag, ``q`` those whose title or a
        seat's name holds that text (case ignored). ``sort`` is ``uploaded_at``,
        ``title``, ``players``, ``turns``, ``actions`` or ``top_score``, ``-`` first for
        descending; ``cursor`` is a page's ``next_cursor``. Private games are left out,
        but for ``include_private`` (all) or ``viewer`` (the token name that uploaded
        them). ValueError for an unknown game, sort or option, ``games.BadCursor`` for a
        cursor not made for this sort.
        """
        where = game_filters(
            rules=resolve(game, option, attributes), players=players, option=option,
            since=since, until=until, tag=tag, q=q, player=player, attributes=attributes,
            winner=winner,
            include_private=include_private, viewer=viewer,
        )  # fmt: skip
        return games.list_games(self._db(), where, sort, cursor, limit)

    def summary(self, game_id: UUID) -> dict[str, Any] | None:
        """A game's summary with its per-seat rows; None for a game not (yet) projected."""
        return games.summary(self._db(), game_id)

    def timeline(self, game_id: UUID) -> list[dict[str, Any]] | None:
        """A game's per-step rows (``projections.timeline``); None for an unknown game."""
        return games.timeline(self._db(), game_id)

    def stats(
        self,
        *,
        game: str | None = None,
        players: int | None = None,
        option: str | None = None,
        since: date | datetime | None = None,
        until: date | datetime | None = None,
        tag: str | None = None,
        q: str | None = None,
        player: str | None = None,
        bots: bool = False,
    ) -> dict[str, Any]:
        """Statistics over the finished public games matching the filters: of ``game``
        (default: every game, or the one game the options asked for are of).

        With ``player``, the games are those they played and the per-seat figures (win
        rates, scores, the game's own figures) are theirs alone. Bots' seats count only
        with ``bots``.
        """
        filters = {"game": game, "players": players, "option": option, "since": since,
                   "until": until, "tag": tag, "q": q}  # fmt: skip
        return statistics.stats(self._db(), filters, player, bots)

    def player(
        self, name: str, game: str | None = None, bots: bool = False
    ) -> dict[str, Any] | None:
        """A named player's games, wins, average score and score trend (of ``game`` only,
        if named: then also the seat attribute they play most).

        Over finished public games (a bot's seats only with ``bots``); None when they have
        played none.
        """
        return statistics.player(self._db(), name, game, bots)

    def ratings(self, season: leagues.Season) -> dict[str, Any]:
        """The leaderboard of ``season``'s league (:mod:`projections.ratings`)."""
        return leagues.leaderboard(self._db(), season)

    def player_rating(self, name: str, season: leagues.Season) -> dict[str, Any] | None:
        """A player's rating in ``season``'s league, its history and their most frequent
        opponents; None when no rated game of it has them."""
        return leagues.player(self._db(), name, season)

    def head_to_head(self, a: str, b: str, season: leagues.Season) -> dict[str, Any] | None:
        """Two players' games together in ``season``'s league; None unless both are rated."""
        return leagues.head_to_head(self._db(), a, b, season)

    def game_rating(self, game_id: UUID, bots: bool = False) -> dict[str, Any] | None:
        """A game as its game's league (with the seats bots played, ``bots``) rated it; None
        when the league has not that game (unknown, unfinished or private)."""
        summary = self.summary(game_id)
        if summary is None:
            return None
        return leagues.game(self._db(), str(game_id), leagues.Season(summary["game"], bots=bots))

    def aliases(self) -> Aliases:
        """The players' merged names (:mod:`projections.aliases`)."""
        db = self._db()
        with db.reading() as conn:
            return aliases.load(db, conn, tables.LIVE)

    def most_played(self) -> str:
        """The game with the most finished public games (the store's first game, with none)."""
        counts = self.played()
        return max(counts, key=lambda game: (counts[game], game)) if counts else FIRST

    def played(self) -> dict[str, int]:
        """How many finished public games each game has (a game without any is left out)."""
        return statistics.played(self._db())
