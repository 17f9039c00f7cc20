"""*The Wolves* (Pandasaurus, 2022): the rules engine. Contract: the rules reference W-1 … W-12."""

from domain.wolves.actions import (
    Action,
    BonusAction,
    BuildDen,
    Dominate,
    Draft,
    Howl,
    Move,
    Pass,
    Pay,
    UpgradeLair,
    WolfStep,
)
from domain.wolves.evolve import evolve, fold
from domain.wolves.legal import legal_actions, move_destinations, sample_move, single_moves
from domain.wolves.rules import IllegalAction, decide, play
from domain.wolves.scoring import board_vp, control, final_scores
from domain.wolves.setup import Options, Player, Setup, generate_setup
from domain.wolves.state import Piece, PlayerBoard, State, initial_state

__all__ = [
    "Action", "BonusAction", "BuildDen", "Dominate", "Draft", "Howl", "IllegalAction", "Move",
    "Options", "Pass", "Pay", "Piece", "Player", "PlayerBoard", "Setup", "State", "UpgradeLair",
    "WolfStep", "board_vp", "control", "decide", "evolve", "final_scores", "fold",
    "generate_setup", "initial_state", "legal_actions", "move_destinations", "play",
    "sample_move", "single_moves",
]  # fmt: skip
