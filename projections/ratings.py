"""Players' ratings read from the seat rows (:mod:`domain.ratings`): the finished public games of
one ruleset that match a season's filters (a date range, a tag), rated in the order they were
played (their records' ``meta.played_on``, else their upload; then upload time and game id),
the seats bots played left out unless asked for.

A league is rated when first asked for and kept while the read models stay where they are
(:data:`KEPT` leagues at once); once games are added it is rated on from where it was, or
again from the start when a game comes before some it rated, or players were merged.
Players are their names' keys (case, accents and surrounding space ignored, merged names
as one), shown by the name a merge gave them, else the spelling they last played under.
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from domain.games import ruleset
from domain.ratings import Change, League, Played, Rated, Rating, Seat
from projections.aliases import marks, player_key, shown_names
from projections.db import Database
from projections.filters import game_filters, moment, storable
from projections.statistics import RECENT_GAMES
from projections.tables import FAILURES, SEATS, position

KEPT = 16
"""Rated leagues kept in memory (one per season and store)."""


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
    """A season's league once rated: the league, each game as rated (in order) with when it
    was played, and each rated player's shown name and wins."""

    league: League
    games: list[tuple[Rated, str]]
    names: dict[str, str]
    wins: Counter[str] = field(default_factory=Counter)
    merged: tuple[tuple[str, str], ...] = ()
    """The players' merges it was rated under (:func:`~projections.aliases.marks`)."""


Kept = tuple[str, str | None, str | None, str | None, bool, str]
"""A league's key: its game, season bounds (as stored), tag, bots, and the store."""
_kept: OrderedDict[Kept, tuple[tuple[int, int], LeagueState]] = OrderedDict()
"""The latest rating of each league asked for, with the read models' state then."""
_rating: dict[Kept, threading.Lock] = {}
"""One lock per league: one request rates it while the others wait for its result."""
_kept_lock = threading.Lock()


def rating(db: Database, season: Season) -> LeagueState:
    """The league of ``season``, rated (or as kept while the read models stay as they were:
    their log position and how many games failed; when they moved, rated on from where it
    was if the games added come after those it rated)."""
    since = moment(season.since) if season.since is not None else None
    until = moment(season.until, end=True) if season.until is not None else None
    tag = season.tag.strip() if season.tag is not None else None
    key = (season.game, since, until, tag, season.bots, f"{db.url} {db.schema}")
    with _kept_lock:
        lock = _rating.setdefault(key, threading.Lock())
    with lock:
        state = (position(db), failures(db))
        with _kept_lock:
            kept = _kept.get(key)
            if kept is not None:
                _kept.move_to_end(key)
        if kept is not None and kept[0] == state:
            return kept[1]
        rated = _rate(db, season, kept[1] if kept is not None else None)
        with _kept_lock:
            _kept[key] = (state, rated)
            while len(_kept) > KEPT:
                gone, _ = _kept.popitem(last=False)
                _rating.pop(gone, None)
    return rated


def failures(db: Database) -> int:
    """How many games the read models left out (a retry that projects one changes it)."""
    return int(db.fetchall(f"SELECT COUNT(*) FROM {FAILURES}")[0][0])


Seated = tuple[str, str, int, int]
"""A seat of a league's game: its name's key, the name, its place and whether it won."""


def _games(db: Database, season: Season) -> list[tuple[str, str, list[Seated]]]:
    """The league's games in order: id, when played, and its seats."""
    where = game_filters(
        rules=ruleset(season.game), since=season.since, until=season.until, tag=season.tag,
        finished_only=True, alias="s",
    )  # fmt: skip
    if not season.bots:
        where.add("s.bot = ?", 0)
    rows = db.fetchall(
        f"SELECT s.game_id, s.played_at, s.name_key, s.name, s.place, s.won FROM {SEATS} s "
        f"{where.sql()} ORDER BY s.played_at, s.uploaded_at, s.game_id, s.seat",
        where.params,
    )
    games: list[tuple[str, str, list[Seated]]] = []
    for game_id, at, key, name, place, won in rows:
        if not games or games[-1][0] != game_id:
            games.append((game_id, at, []))
        games[-1][2].append((key, name, place, won))
    return games


def _rate(db: Database, season: Season, before: LeagueState | None) -> LeagueState:
    """``season``'s league rated: on from ``before`` when its games are the first ones."""
    games, merged = _games(db, season), marks(db)
    done = len(before.games) if before is not None else 0
    if (
        before is None
        or before.merged != merged
        or [g for g, _, _ in games[:done]] != [r.game_id for r, _ in before.games]
    ):
        before, done = LeagueState(League(), [], {}), 0
    league = League(dict(before.league.ratings), before.league.model)
    shown = LeagueState(
        league, list(before.games), dict(before.names), Counter(before.wins), merged
    )
    for game_id, at, seats in games[done:]:
        rated = league.play(Played(game_id, tuple(Seat(key, place) for key, _, place, _ in seats)))
        shown.games.append((rated, at))
        if rated.changes:
            for key, name, _, won in seats:
                shown.names[key] = name
                shown.wins[key] += won
    shown.names.update((key, name) for key, name in shown_names(db).items() if key in shown.names)
    return shown


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
        "games": sum(1 for rated, _ in shown.games if rated.changes),
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
    played: list[tuple[Rated, str, Change]] = []
    met, beaten, lost = Counter[str](), Counter[str](), Counter[str]()
    for rated, at in shown.games:
        mine = next((c for c in rated.changes if c.player == key), None)
        if mine is None:
            continue
        played.append((rated, at, mine))
        for other in rated.changes:
            if other.player != key:
                met[other.player] += 1
                beaten[other.player] += mine.place < other.place
                lost[other.player] += other.place < mine.place
    opponents = [
        {"name": shown.names[o], "games": n, "wins": beaten[o], "losses": lost[o]}
        for o, n in sorted(met.items(), key=lambda item: (-item[1], item[0]))[:10]
    ]
    first = max(len(played) - RECENT_GAMES, 0)
    history = [
        {"game_id": rated.game_id, "number": first + n, "played_at": at,
         "players": len(rated.changes), **_change(mine)}
        for n, (rated, at, mine) in enumerate(played[first:], start=1)
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
    for rated, at in shown.games:
        seats = {c.player: c for c in rated.changes}
        if keys[0] in seats and keys[1] in seats:
            together.append((rated.game_id, at, (seats[keys[0]], seats[keys[1]])))
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
    found = next(((r, at) for r, at in shown.games if r.game_id == game_id), None)
    if found is None:
        return None
    rated, at = found
    seats = [
        {"name": shown.names[c.player], "before": round(c.before.shown, 3), **_change(c)}
        for c in rated.changes
    ]
    return {"game_id": game_id, "game": season.game, "played_at": at, "seats": seats}
