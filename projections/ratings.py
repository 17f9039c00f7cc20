"""Players' ratings read from the seat rows (:mod:`domain.ratings`): the finished public games of
one ruleset that match a season's filters (a date range, a tag), rated in the order they were
played (their records' ``meta.played_on``, else their upload; then upload time and game id),
the seats bots played left out unless asked for.

A league is rated when first asked for and kept while the read models stay where they are
(:data:`KEPT` leagues at once); once games are added it is rated on from where it was, or
again from the start when a game comes before some it rated, a game it rated changed or left
it, or players were merged. What changed is read from the seat rows written since (their
``projected`` position), so a league rated on costs the new games, not the whole league; a
player's games and meetings are counted as they are rated, so their page costs their last
games.
Players are their names' keys (case, accents and surrounding space ignored, merged names
as one), shown by the name a merge gave them, else the spelling they last played under.
"""

from __future__ import annotations

import struct
import sys
import threading
from array import array
from bisect import bisect_left
from collections import Counter, OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any
from uuid import UUID

from domain.games import ruleset
from domain.ratings import Change, League, Played, Rated, Rating, Seat
from projections.aliases import marks, player_key, shown_names
from projections.db import Database
from projections.filters import Where, game_filters, moment, storable
from projections.statistics import RECENT_GAMES
from projections.tables import PROJECTED, SEATS, state

KEPT = 16
"""Rated leagues kept in memory (one per season and store)."""
SEAT = struct.Struct("<iiddiddidi")
"""A rated seat as :class:`Games` holds it: its player's number, its place, its player's
rating before and after (mean, spread, games) and the predictions before the game (chance to
win, likely place)."""
HEAD = struct.Struct("<16sH")
"""A rated game's start as :class:`Games` holds it: its id and the length of when it was
played (the text that follows, then its seats)."""


class Games:
    """Every game a league rated, in order, each one ``bytes`` (:data:`HEAD`, when it was
    played, :data:`SEAT` after :data:`SEAT`): with its index, about 420 bytes a game of
    three or four seats, where a tuple of its id, date, players and seats took 730 (every
    server process keeps every game of its leagues).

    Append-only: the states a league goes through share it, each reading its first games
    (:attr:`LeagueState.count`), so that rating on copies nothing.

    >>> from domain.ratings import League, Played, Seat
    >>> games, league = Games(), League()
    >>> gid = "00000000-0000-0000-0000-00000000000a"
    >>> rated = league.play(Played(gid, (Seat("ana", 1), Seat("bo", 2))))
    >>> games.add(rated, "2026-01-01")
    0
    >>> games.rated(0) == (rated, "2026-01-01"), games.index(gid, 1), games.index(gid, 0)
    (True, 0, None)
    """

    def __init__(self) -> None:
        self._games: list[bytes] = []
        self._index: dict[bytes, int] = {}
        self._players: list[str] = []
        self._numbers: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self._games)

    def add(self, rated: Rated, at: str) -> int:
        """Keep the next game (played ``at``): its index."""
        numbers = self._numbers
        for change in rated.changes:
            if change.player not in numbers:
                numbers[change.player] = len(self._players)
                self._players.append(sys.intern(change.player))
        when = at.encode()
        key = UUID(rated.game_id).bytes
        self._games.append(b"".join([HEAD.pack(key, len(when)), when, *(
            SEAT.pack(numbers[c.player], c.place, c.before.mu, c.before.sigma, c.before.games,
                      c.after.mu, c.after.sigma, c.after.games, c.win_chance, c.predicted_place)
            for c in rated.changes
        )]))  # fmt: skip
        self._index[key] = index = len(self._games) - 1
        return index

    def index(self, game_id: str, count: int) -> int | None:
        """The index of game ``game_id`` among the first ``count`` games, if there."""
        try:
            found = self._index.get(UUID(game_id).bytes)
        except ValueError:  # not a game's id
            return None
        return found if found is not None and found < count else None

    def rated(self, index: int) -> tuple[Rated, str]:
        """The game at ``index`` as rated, and when it was played."""
        packed = self._games[index]
        key, size = HEAD.unpack_from(packed)
        at = packed[HEAD.size : HEAD.size + size].decode()
        players = self._players
        changes = tuple(
            Change(players[who], place, Rating(mu, sigma, games), Rating(mu2, sigma2, games2),
                   chance, likely)
            for who, place, mu, sigma, games, mu2, sigma2, games2, chance, likely
            in SEAT.iter_unpack(packed[HEAD.size + size :])
        )  # fmt: skip
        return Rated(str(UUID(bytes=key)), changes), at


@dataclass(frozen=True)
class Season:
    """Which games a league rates: one game's, played in ``[since, until)`` (a date ``until``
    includes that day), tagged ``tag``; with ``bots``, the seats bots played too."""

    game: str
    since: date | datetime | None = None
    until: date | datetime | None = None
    tag: str | None = None
    bots: bool = False


@dataclass
class LeagueState:
    """A season's league once rated: the league, its first :attr:`count` games as rated (in
    order, with when they were played), and each rated player's shown name and wins."""

    league: League
    games: Games
    count: int
    names: dict[str, str]
    wins: Counter[str] = field(default_factory=Counter)
    merged: tuple[tuple[str, str], ...] = ()
    """The players' merges it was rated under (:func:`~projections.aliases.marks`)."""
    state: tuple[int, int] = (0, 0)
    """The read models it was rated from: their log position and how many games failed."""
    last: tuple[str, str, str] | None = None
    """Its last game's place in the order: when played, when uploaded, its id."""
    rated: int = 0
    """How many of its games have rated seats."""
    played: dict[str, array[int]] = field(default_factory=dict)
    """The indexes in :attr:`games` of each player's rated games, by the player's key (in
    order, shared with the league's later states: only those under :attr:`count` are its
    own)."""
    met: dict[str, Counter[str]] = field(default_factory=dict)
    """Each player's rated games with each other player, by their keys."""
    beaten: dict[str, Counter[str]] = field(default_factory=dict)
    """Each player's games ending ahead of each other player (the places they differ in)."""

    def games_of(self, key: str) -> int:
        """How many games player ``key`` was rated in."""
        return bisect_left(self.played.get(key, ()), self.count)

    def of(self, key: str, first: int = 0) -> list[tuple[Rated, str, Change]]:
        """The games player ``key`` was rated in, in order (from their ``first``), each with
        when it was played and the player's change."""
        found = []
        indexes = self.played.get(key, array("i"))
        for i in indexes[first : self.games_of(key)]:
            rated, at = self.games.rated(i)
            found.append((rated, at, next(c for c in rated.changes if c.player == key)))
        return found


Kept = tuple[str, str | None, str | None, str | None, bool, str]
"""A league's key: its game, season bounds (as stored), tag, bots, and the store."""
_kept: OrderedDict[Kept, LeagueState] = OrderedDict()
"""The latest rating of each league asked for."""
_rating: dict[Kept, threading.Lock] = {}
"""One lock per league: one request rates it while the others wait for its result."""
_kept_lock = threading.Lock()


def rating(db: Database, season: Season) -> LeagueState:
    """The league of ``season``, rated (or as kept while the read models stay as they were:
    their log position and how many games failed; when they moved, rated on from where it
    was if the only games changed since are new ones after those it rated)."""
    since = moment(season.since) if season.since is not None else None
    until = moment(season.until, end=True) if season.until is not None else None
    tag = season.tag.strip() if season.tag is not None else None
    key = (season.game, since, until, tag, season.bots, f"{db.url} {db.schema}")
    with _kept_lock:
        lock = _rating.setdefault(key, threading.Lock())
    with lock:
        with _kept_lock:
            kept = _kept.get(key)
            if kept is not None:
                _kept.move_to_end(key)
        if kept is not None and kept.state == state(db):
            return kept
        rated = _rate(db, season, kept)
        with _kept_lock:
            _kept[key] = rated
            while len(_kept) > KEPT:
                gone, _ = _kept.popitem(last=False)
                _rating.pop(gone, None)
    return rated


Seated = tuple[str, str, int, int]
"""A seat of a league's game: its name's key, the name, its place and whether it won."""
Ordered = tuple[str, str, str, list[Seated]]
"""A league's game: its id, when played, when uploaded, and its seats."""


def _season(season: Season) -> Where:
    """The seat rows ``season``'s league rates (``s``: the seats' table)."""
    where = game_filters(
        rules=ruleset(season.game), since=season.since, until=season.until, tag=season.tag,
        finished_only=True, alias="s",
    )  # fmt: skip
    if not season.bots:
        where.add("s.bot = ?", 0)
    return where


def _new_games(
    db: Database, conn: Any, season: Season, before: LeagueState
) -> list[Ordered] | None:
    """The games of the league that are new since ``before`` was rated (in order), when
    that is all that changed and they all come after its games; else None (rate again)."""
    where = _season(season)
    old = Where(list(where.clauses), list(where.params))
    old.add(f"s.{PROJECTED} <= ?", before.state[0])
    (count,) = db.execute(
        conn, f"SELECT COUNT(DISTINCT s.game_id) FROM {SEATS} s {old.sql()}", old.params
    ).fetchone()
    if count != before.count:  # one left, or came in unchanged (its tags, say)
        return None
    if before.last is not None and not db.execute(  # its last game, as it was uploaded then
        conn, f"SELECT 1 FROM {SEATS} WHERE game_id = ? AND played_at = ? AND uploaded_at = ?",
        (before.last[2], *before.last[:2]),
    ).fetchall():  # fmt: skip
        return None
    where.add(f"s.{PROJECTED} > ?", before.state[0])
    last = before.last or ("", "", "")
    after = "CASE WHEN (s.played_at, s.uploaded_at, s.game_id) > (?, ?, ?) THEN 1 ELSE 0 END"
    rows = db.execute(conn, _ordered(f"{after}, ", where), [*last, *where.params]).fetchall()
    if any(not row[0] or before.games.index(row[1], before.count) is not None for row in rows):
        return None
    return _grouped([row[1:] for row in rows])


def _ordered(extra: str, where: Where) -> str:
    """The query of the seat rows ``where`` selects, in the league's order (``extra``:
    columns selected first)."""
    return (
        f"SELECT {extra}s.game_id, s.played_at, s.uploaded_at, s.name_key, s.name, s.place, "
        f"s.won FROM {SEATS} s {where.sql()} "
        "ORDER BY s.played_at, s.uploaded_at, s.game_id, s.seat"
    )


def _grouped(rows: Iterable[Sequence[Any]]) -> list[Ordered]:
    """Seat rows (in order) as games."""
    games: list[Ordered] = []
    for game_id, at, uploaded, key, name, place, won in rows:
        if not games or games[-1][0] != game_id:
            games.append((game_id, at, uploaded, []))
        games[-1][3].append((key, name, place, won))
    return games


def _rate(db: Database, season: Season, before: LeagueState | None) -> LeagueState:
    """``season``'s league rated: on from ``before`` when the only games changed since it
    are new ones after its own (one snapshot of the read models), else from the start."""
    merged = marks(db)
    if before is not None and (before.merged != merged or before.count != len(before.games)):
        before = None  # merged since, or its rating on failed part way
    with db.reading() as conn:
        now = state(db, conn)
        games = _new_games(db, conn, season, before) if before is not None else None
        if games is None:
            before = None
            where = _season(season)
            games = _grouped(db.execute(conn, _ordered("", where), where.params).fetchall())
    if before is None:
        before = LeagueState(League(), Games(), 0, {})
    league = League(dict(before.league.ratings), before.league.model)
    shown = LeagueState(
        league, before.games, before.count, dict(before.names), Counter(before.wins), merged,
        now, before.last, before.rated, dict(before.played), dict(before.met),
        dict(before.beaten),
    )  # fmt: skip
    touched: set[str] = set()  # the players whose meetings are copies already (``before`` stays)
    for game_id, at, uploaded, seats in games:
        rated = league.play(Played(game_id, tuple(Seat(key, place) for key, _, place, _ in seats)))
        index = shown.games.add(rated, at)
        for change in rated.changes:
            _tally(shown, change, rated.changes, index, touched)
        shown.count, shown.last = index + 1, (at, uploaded, game_id)
        if rated.changes:
            shown.rated += 1
            for key, name, _, won in seats:
                shown.names[key] = name
                shown.wins[key] += won
    shown.names.update((key, name) for key, name in shown_names(db).items() if key in shown.names)
    return shown


def _tally(
    shown: LeagueState, mine: Change, changes: Sequence[Change], index: int, touched: set[str]
) -> None:
    """Count the game at ``index`` (its ``changes``) in the player of ``mine``'s games and
    meetings (copying their meetings first, once: the state rated on from keeps its own)."""
    key = mine.player
    if key not in touched:
        touched.add(key)
        shown.met[key] = Counter(shown.met.get(key, ()))
        shown.beaten[key] = Counter(shown.beaten.get(key, ()))
    shown.played.setdefault(key, array("i")).append(index)
    for other in changes:
        if other.player != key:
            shown.met[key][other.player] += 1
            shown.beaten[key][other.player] += mine.place < other.place


def _player(shown: LeagueState, key: str) -> dict[str, Any]:
    """A rated player as the answers show them: name, rating, ``mu``, ``sigma``, games, wins."""
    r = shown.league.rating(key)
    return {"name": shown.names[key], **_skill(r), "games": r.games, "wins": shown.wins[key]}


def _skill(r: Rating) -> dict[str, float]:
    """A rating as the answers show it: its shown value, ``mu`` and ``sigma``."""
    return {"rating": round(r.shown, 3), "mu": round(r.mu, 3), "sigma": round(r.sigma, 3)}


def leaderboard(db: Database, season: Season) -> dict[str, Any]:
    """``{"game", "games", "players": [...]}``: every rated player, best shown rating first,
    each with their rating (``mu - 3 sigma``), ``mu``, ``sigma``, games rated and wins."""
    shown = rating(db, season)
    return {
        "game": season.game,
        "games": shown.rated,
        "players": [_player(shown, s.player) for s in shown.league.standings()],
    }


def _change(change: Change) -> dict[str, Any]:
    """A rated seat's rating after a game, its change, its place and the predictions."""
    return {
        **_skill(change.after), "change": round(change.after.shown - change.before.shown, 3),
        "place": change.place, "predicted_place": change.predicted_place,
        "win_chance": round(change.win_chance, 4),
    }  # fmt: skip


def player(db: Database, name: str, season: Season) -> dict[str, Any] | None:
    """A player's rating in ``season``'s league, its history game by game (their last
    :data:`~projections.statistics.RECENT_GAMES`, numbered among all theirs) and the opponents
    they met most (with each one's wins against them); None when no rated game has them."""
    if not storable(name):
        return None
    key = player_key(db, name)
    shown = rating(db, season)
    if key not in shown.league.ratings:
        return None
    met, beaten = shown.met[key], shown.beaten[key]
    opponents = [
        {"name": shown.names[o], "games": n, "wins": beaten[o],
         "losses": shown.beaten[o][key]}
        for o, n in sorted(met.items(), key=lambda item: (-item[1], item[0]))[:10]
    ]  # fmt: skip
    first = max(shown.games_of(key) - RECENT_GAMES, 0)
    history = [
        {"game_id": rated.game_id, "number": first + n, "played_at": at,
         "players": len(rated.changes), **_change(mine)}
        for n, (rated, at, mine) in enumerate(shown.of(key, first), start=1)
    ]  # fmt: skip
    return {"game": season.game, **_player(shown, key), "history": history, "opponents": opponents}


def head_to_head(db: Database, a: str, b: str, season: Season) -> dict[str, Any] | None:
    """Two players' games together in ``season``'s league: each one's wins (places better
    than the other's) and average place, and their rating gap now; None when either has no
    rated game."""
    if not all(storable(n) for n in (a, b)):
        return None
    keys = player_key(db, a), player_key(db, b)
    shown = rating(db, season)
    if not all(k in shown.league.ratings for k in keys):
        return None
    together: list[tuple[str, str, tuple[Change, Change]]] = []
    for rated, at, mine in shown.of(keys[0]):
        theirs = next((c for c in rated.changes if c.player == keys[1]), None)
        if theirs is not None:
            together.append((rated.game_id, at, (mine, theirs)))
    sides = []
    for side, key in enumerate(keys):
        places = [pair[side].place for _, _, pair in together]
        wins = sum(pair[side].place < pair[1 - side].place for _, _, pair in together)
        average = round(sum(places) / len(places), 3) if places else None
        sides.append({**_player(shown, key), "wins_against": wins, "average_place": average})
    gap = shown.league.rating(keys[0]).shown - shown.league.rating(keys[1]).shown
    return {
        "game": season.game, "players": sides, "rating_gap": round(gap, 3),
        "games": [{"game_id": g, "played_at": at, "places": [x.place, y.place]}
                  for g, at, (x, y) in together],
    }  # fmt: skip


def game(db: Database, game_id: str, season: Season) -> dict[str, Any] | None:
    """One game of ``season``'s league as rated: each rated seat's player, place, rating
    before and after and the predictions before it (``seats`` empty: the game is in the
    league but could not be rated); None when the league has no such game."""
    shown = rating(db, season)
    index = shown.games.index(game_id, shown.count)
    if index is None:
        return None
    rated, at = shown.games.rated(index)
    seats = [
        {"name": shown.names[c.player], "before": round(c.before.shown, 3), **_change(c)}
        for c in rated.changes
    ]
    return {"game_id": game_id, "game": season.game, "played_at": at, "seats": seats}
