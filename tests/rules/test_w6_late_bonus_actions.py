"""W-6: bonus action tokens may be spent at any moment of the turn, also after its last action
and with a token that action won (seed 000 p.6 and p.19: "pode usar em qualquer altura"); the
turn ends on a pass, or with no action and no token left; in a record the next seat's action
ends it as a pass would (records.md "Actions")."""

from __future__ import annotations

from domain.wolves import BonusAction, BuildDen, Howl, Move, Pass, WolfStep, legal_actions, play
from domain.wolves import events as ev
from domain.wolves.legal import move_destinations
from domain.wolves.players import HeuristicBot
from domain.wolves.rules import close_turn
from domain.wolves.state import State
from tests.rules.scenario import grid_map, illegal, of_type, run, scenario, set_board
from tests.rules.test_w7_w9_scoring import moon

#   x: 0  1  2  3  4  5
FIELD = grid_map(
    "g1 g1 g1 g1 g1 g1",  # y=0
    "g1 g1 g1 g1 g1 g1",  # y=1
    "g1 g1 g1 ~1 g1 g1",  # y=2
    "g1 g1 g1 g1 g1 g1",  # y=3
    "g1 g1 g1 g1 g1 g1",  # y=4   deer on (5, 4): its land neighbours are (4, 3) (5, 3) (4, 4)
    prey={(5, 4): ("deer", 2)},
)
PIECES = {(5, 3): "P0", (4, 4): "A0", (3, 0): "P0", (0, 0): "A1", (0, 4): "A2"}


def hunt_on_the_last_action() -> tuple[State, list[ev.Event]]:
    """Seat 0's second action closes a hunt, which gives a bonus action token (3 players)."""
    state = scenario(FIELD, pieces=PIECES, tokens=9)
    return run(
        state,
        Move(0, (WolfStep((3, 0), (3, 1)),)),
        Move(0, (WolfStep((3, 1), (4, 3)),)),
    )


def test_w6_a_token_won_by_the_last_action_keeps_the_turn_open() -> None:
    state, events = hunt_on_the_last_action()
    assert of_type(events, ev.PreyHunted) == [ev.PreyHunted(0, (5, 4), "deer")]
    assert of_type(events, ev.BonusTokenGained) == [ev.BonusTokenGained(0, "action")]
    assert not of_type(events, ev.TurnEnded)
    assert (state.player, state.actions_left, state.boards[0].bonus_action) == (0, 0, 1)
    assert state.out_of_actions
    assert list(legal_actions(state)) == [BonusAction(0), Pass(0)]
    assert move_destinations(state) == {}
    illegal(
        state, Move(0, (WolfStep((4, 3), (4, 2)),)), "W-6", "seat 0 (P0) has no action left",
        "spend a bonus action token or pass",
    )  # fmt: skip
    state, events = run(state, BonusAction(0), Move(0, (WolfStep((4, 4), (3, 4)),)))
    assert events[-1] == ev.TurnEnded(0, 1, 0, 0), "no action and no token left: the turn ends"
    assert (state.player, state.actions_left) == (1, 2)


def test_w6_a_token_won_by_the_last_den_keeps_the_turn_open() -> None:
    """The 2nd den of the spread track gives a bonus action token (W-5)."""
    state = scenario(FIELD, pieces={(1, 1): "A0", (4, 4): "A1"}, actions_left=1, tokens=9)
    set_board(state, 0, dens=(1, 0, 0))
    state, events = play(state, BuildDen(0, (1, 0), "spread"))
    assert of_type(events, ev.BonusTokenGained) == [ev.BonusTokenGained(0, "action")]
    assert state.out_of_actions and state.player == 0


def test_w6_pass_ends_the_turn_keeping_the_tokens() -> None:
    state, _ = hunt_on_the_last_action()
    state, events = play(state, Pass(0))
    assert events == [ev.Passed(0), ev.TurnEnded(0, 1, 0, 1)]
    assert state.player == 1 and state.boards[0].bonus_action == 1


def test_w6_pass_with_actions_left_keeps_the_tokens() -> None:
    """records.md "Actions": a pass forfeits the actions left, never the tokens held."""
    state = scenario(FIELD, pieces=PIECES, tokens=9)
    set_board(state, 0, bonus_action=2)
    state, events = play(state, Pass(0))
    assert events == [ev.Passed(0), ev.TurnEnded(0, 1, 0, 2)]
    assert (state.player, state.actions_left, state.boards[0].bonus_action) == (1, 2, 2)


def test_w6_the_next_seats_action_ends_the_turn_as_a_pass_would() -> None:
    state, _ = hunt_on_the_last_action()
    passed, passing = play(state, Pass(0))
    move = Move(1, (WolfStep((0, 0), (1, 0)),))
    after, events = play(state, move)
    assert events[0] == ev.TurnEnded(0, 1, 0, 1), "the turn ends first, keeping the token"
    assert isinstance(events[1], ev.WolvesMoved) and events[1].player == 1
    assert after.boards[0].bonus_action == 1
    assert close_turn(state) == passed and passed.player == 1
    moved, moving = play(passed, move)
    assert (moved, passing[1:] + moving) == (after, events), "exactly as a pass would"
    illegal(
        state, Move(2, (WolfStep((0, 4), (1, 4)),)), "W-6", "seat 1 (P1)'s turn, not seat 2 (P2)'s"
    )


def test_w6_final_turn_is_over_only_once_it_ends() -> None:
    """The full moon is reached by the last action (3 players: date 22), but the player
    holds a token: the game ends only when that turn ends (W-7, W-6)."""
    state = moon(21, phases_scored=2, actions_left=1)
    set_board(state, 0, bonus_action=1)
    state, events = play(state, Howl(0, (0, 3)))
    assert state.date == 22 and not state.finished and not of_type(events, ev.RegionScored)
    illegal(state, Pass(1), "W-7", "the game is over")  # the next seat's action ends it first
    spent, events = run(state, BonusAction(0), Howl(0, (1, 3)))
    assert spent.finished and isinstance(events[-1], ev.GameEnded)
    passed, events = play(state, Pass(0))
    ended = events[-1]
    assert passed.finished and isinstance(ended, ev.GameEnded) and ended.reason == "full_moon"


def test_w6_heuristic_player_spends_a_late_token_when_an_action_helps() -> None:
    """The token buys the 4th den of the speed track: 7 VP instead of 3 (W-5)."""
    state, _ = hunt_on_the_last_action()
    set_board(state, 0, dens=(0, 3, 0))
    bot = HeuristicBot(seed=1)
    assert bot.choose(state) == BonusAction(0)
    state, _ = play(state, BonusAction(0))
    bought = bot.choose(state)
    assert isinstance(bought, BuildDen) and bought.track == "speed"


def test_w6_heuristic_player_keeps_the_token_when_nothing_can_be_bought() -> None:
    state, _ = hunt_on_the_last_action()
    # no tile shows grassland and no bonus terrain token: no action can be paid for
    set_board(state, 0, flipped=(False, False, False, True, False, False), bonus_terrain=0)
    assert HeuristicBot(seed=1).choose(state) == Pass(0)


def test_w6_heuristic_player_spends_its_tokens_before_the_game_ends() -> None:
    """Tokens are worth nothing once the game is over (W-9 counts no token)."""
    state = moon(21, phases_scored=2, actions_left=1)
    set_board(state, 0, bonus_action=1)
    state, _ = play(state, Howl(0, (0, 3)))
    assert HeuristicBot(seed=1).choose(state) == BonusAction(0)
