"""The review behind the ruleset: the frame reaches a game's review only through
``Ruleset.review``, so no module outside the games' own packages, their board views and
the registry imports a game."""

from __future__ import annotations

import ast

import pytest

from domain import games
from domain.moonlight.ruleset import MOONLIGHT
from domain.wolves.analysis.review import ANALYSIS_VERSION, Settings
from domain.wolves.ruleset import WOLVES
from projections.analysis import default_settings, settings_from_json, settings_to_json
from tests.test_layers import PACKAGES, ROOT, imports

GAME_DIRS = {p.parent for p in ROOT.glob("domain/*/ruleset.py")}
"""The games' own packages."""


def test_only_the_games_their_board_views_and_the_registry_import_a_game() -> None:
    assert {d.name for d in GAME_DIRS} >= {"wolves", "moonlight"}
    outside = [
        path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if not any(d in path.parents for d in (*GAME_DIRS, ROOT / "dashboard/boards"))
        and path != ROOT / "domain/games.py"
    ]
    found = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in outside
        for line, name in imports(path, ROOT)
        if any(name.split(".")[:2] == ["domain", d.name] for d in GAME_DIRS)
    ]
    assert found == []


def test_the_wolves_has_a_review_and_moonlight_none_yet() -> None:
    assert WOLVES.review is not None and MOONLIGHT.review is None
    assert [r.name for r in games.rulesets() if r.review is not None] == ["the-wolves"]


def test_the_service_settings_are_the_reviews_and_read_back_by_their_key() -> None:
    assert default_settings() == Settings(playouts=12, candidates=4)  # the standard depth
    assert default_settings("quick") == Settings()
    asked = default_settings(playouts=2, candidates=1)
    assert asked == Settings(playouts=2, candidates=1)
    assert asked.key.startswith(f"a{ANALYSIS_VERSION}-p2-c1-r1-s0-")
    stored = settings_to_json(asked)
    assert stored == '{"candidates": 1, "playouts": 2, "rounds": 1, "seed": 0}'
    assert settings_from_json(stored, asked.key) == asked
    with pytest.raises(ValueError, match="no registered review has analysis settings a0-"):
        settings_from_json(stored, "a0-p2-c1-r1-s0-static-0")


def test_only_the_registry_and_the_games_own_code_name_a_game() -> None:
    """No code outside the games' packages, their board views and the registry names a game
    (docstrings aside; ``className="moonlight"`` is a style, The Wolves' moon track's)."""
    names = {rules.name for rules in games.rulesets()}
    own = [ROOT / "domain/games.py", ROOT / "dashboard/boards", *GAME_DIRS]
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if any(path == p or p in path.parents for p in own):
                continue
            tree = ast.parse(path.read_text())
            skipped = {
                id(node.body[0].value)
                for node in ast.walk(tree)
                if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
                and node.body
                and isinstance(node.body[0], ast.Expr)
            }
            skipped |= {
                id(node.value)
                for node in ast.walk(tree)
                if isinstance(node, ast.keyword) and node.arg == "className"
            }
            found += [
                f"{path.relative_to(ROOT)}:{node.lineno} names {node.value!r}"
                for node in ast.walk(tree)
                if isinstance(node, ast.Constant) and node.value in names
                and id(node) not in skipped
            ]  # fmt: skip
    assert found == []
