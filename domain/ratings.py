"""Players' ratings over a league of games: openskill's Plackett–Luce model, rated game by game
in the order the games were played.

Each seat is a team of one; seats that share a place tie. A player is a key (the caller
decides how names become keys, and which seats are left out, such as bots'). Before each game
the model predicts every seat's chance to win and its likely place; after it, each player's
rating moves. A rating is shown as its conservative value ``mu - 3 * sigma``, which starts at
0 and grows as the model grows sure of a strong player.

>>> league = League()
>>> rated = league.play(Played("g1", (Seat("ana", 1), Seat("bo", 2))))
>>> [round(c.win_chance, 2) for c in rated.changes], [c.predicted_place for c in rated.changes]
([0.5, 0.5], [1, 1])
>>> ana, bo = (league.rating("ana"), league.rating("bo"))
>>> ana.mu > 25 > bo.mu, ana.games, bo.games
(True, 1, 1)
>>> [s.player for s in league.standings()]
['ana', 'bo']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

Z: float = 3.0
"""Standard deviations below the mean that a shown rating sits (``mu - Z * sigma``)."""
START_MU: float = 25.0
START_SIGMA: float = START_MU / 3


@dataclass(frozen=True, slots=True)
class Seat:
    """One rated seat of a game: its player's key and place (1 is first; ties share one)."""

    player: str
    place: int


@dataclass(frozen=True, slots=True)
class Played:
    """A game to rate: its id and its rated seats (a game of fewer than two players, or with
    one player at two seats, is not rated)."""

    game_id: str
    seats: tuple[Seat, ...]


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's skill as the model believes it: mean, spread and games rated."""

    mu: float = START_MU
    sigma: float = START_SIGMA
    games: int = 0

    @property
    def shown(self) -> float:
        """The conservative value pages show: ``mu - Z * sigma``."""
        return self.mu - Z * self.sigma


@dataclass(frozen=True, slots=True)
class Change:
    """One seat of a rated game: its player's rating before and after, and what the model
    predicted before it (chance to win, likely place)."""

    player: str
    place: int
    before: Rating
    after: Rating
    win_chance: float
    predicted_place: int


@dataclass(frozen=True, slots=True)
class Rated:
    """A game once rated: every rated seat's change, in seat order (none: not rated)."""

    game_id: str
    changes: tuple[Change, ...]


@dataclass
class League:
    """Ratings so far; :meth:`play` rates the next game played."""

    ratings: dict[str, Rating] = field(default_factory=dict)
    model: PlackettLuce = field(
        default_factory=lambda: PlackettLuce(mu=START_MU, sigma=START_SIGMA)
    )

    def rating(self, player: str) -> Rating:
        """A player's rating now (the starting one when never rated)."""
        return self.ratings.get(player, Rating())

    def play(self, game: Played) -> Rated:
        """Rate ``game``, played after every game rated so far."""
        players = [s.player for s in game.seats]
        if len(players) < 2 or len(set(players)) != len(players):
            return Rated(game.game_id, ())
        before = [self.rating(p) for p in players]
        teams = [[self.model.rating(mu=r.mu, sigma=r.sigma)] for r in before]
        chances = self.model.predict_win(teams)
        places = [place for place, _ in self.model.predict_rank(teams)]
        rated = self.model.rate(teams, ranks=[s.place for s in game.seats])
        changes = []
        for seat, old, (new,), chance, place in zip(
            game.seats, before, rated, chances, places, strict=True
        ):
            after = Rating(new.mu, new.sigma, old.games + 1)
            self.ratings[seat.player] = after
            changes.append(Change(seat.player, seat.place, old, after, chance, place))
        return Rated(game.game_id, tuple(changes))

    def standings(self) -> list[Standing]:
        """Every rated player, best shown rating first (then most games, then key)."""
        return sorted(
            (Standing(player, r) for player, r in self.ratings.items()),
            key=lambda s: (-s.rating.shown, -s.rating.games, s.player),
        )


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's line of a leaderboard."""

    player: str
    rating: Rating


def rate(games: Iterable[Played]) -> tuple[League, list[Rated]]:
    """A league that rated ``games`` in their order, and each game as rated."""
    league = League()
    return league, [league.play(game) for game in games]
