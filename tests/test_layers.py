"""Layers point one way (record → domain → store → projections → api/dashboard, with
``services/`` the composition root both faces import): every import of the source tree,
read with ``ast`` (those inside functions and ``TYPE_CHECKING`` blocks too), keeps to the
layer table of the design."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("domain", "projections", "services", "api", "dashboard")


@dataclass(frozen=True)
class Rule:
    """Modules under ``where`` import nothing that ``forbids`` (a dotted name)."""

    name: str
    where: str
    forbidden: tuple[str, ...]

    def forbids(self, module: str) -> bool:
        """Whether importing ``module`` breaks this rule."""
        return any(module == f or module.startswith(f + ".") for f in self.forbidden)


@dataclass(frozen=True)
class StoreRule(Rule):
    """The store imports no game's analysis package (``domain.<game>.analysis``)."""

    def forbids(self, module: str) -> bool:
        parts = module.split(".")
        return len(parts) >= 3 and parts[0] == "domain" and parts[2] == "analysis"


RULES = (
    Rule("domain imports no outer layer", "domain",
         ("projections", "services", "api", "dashboard")),
    Rule("projections import neither face nor the composition root", "projections",
         ("services", "api", "dashboard")),
    Rule("the composition root imports neither face", "services", ("api", "dashboard")),
    Rule("the dashboard imports no api module", "dashboard", ("api",)),
)  # fmt: skip
STORE_RULE = StoreRule("the store imports no analysis package", "domain.store", ())


def module_name(path: Path, root: Path) -> str:
    """The dotted name of the module at ``path`` (a package by its ``__init__.py``)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path, root: Path) -> Iterator[tuple[int, str]]:
    """``(line, module)`` for every module the file at ``path`` imports; ``from a import b``
    gives both ``a`` and ``a.b`` (``b`` may be a module), relative imports resolved."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            yield node.lineno, base
            for alias in node.names:
                yield node.lineno, f"{base}.{alias.name}"


def breaches(rule: Rule, root: Path = ROOT) -> list[str]:
    """``file:line imports module`` for each import under ``rule.where`` that breaks it."""
    top = root.joinpath(*rule.where.split("."))
    found = {
        (str(path.relative_to(root)), line, module)
        for path in top.rglob("*.py")
        for line, module in imports(path, root)
        if rule.forbids(module)
    }
    return [f"{path}:{line} imports {module}" for path, line, module in sorted(found)]


@pytest.mark.parametrize("rule", RULES, ids=[rule.name for rule in RULES])
def test_each_layer_imports_only_the_layers_below_it(rule: Rule) -> None:
    assert breaches(rule) == []


def test_the_store_imports_no_analysis_package() -> None:
    assert breaches(STORE_RULE) == []


def test_every_package_of_the_tree_is_under_a_rule() -> None:
    top_level = {p.parent.name for p in ROOT.glob("*/__init__.py")} - {"tests", "scripts"}
    assert top_level == set(PACKAGES)
    assert {rule.where for rule in RULES} == set(PACKAGES) - {"api"}  # api may import any


def test_a_breach_is_found_wherever_the_import_is(tmp_path: Path) -> None:
    files = {
        "projections/__init__.py": "",
        "projections/top.py": "from api.config import Settings\n",
        "projections/deep/__init__.py": "",
        "projections/deep/typed.py": (
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n"
            "    import dashboard.app\n"
            "def later():\n"
            "    from services import shared\n"
            "from .. import top\n"
            "from ..top import Settings\n"
            "from projections.db import Database\n"
        ),
        "domain/store/__init__.py": "",
        "domain/store/branches.py": "from domain.wolves import analysis\n",
        "domain/store/fine.py": "from domain.wolves.records import read_record\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert breaches(RULES[1], tmp_path) == [
        "projections/deep/typed.py:3 imports dashboard.app",
        "projections/deep/typed.py:5 imports services",
        "projections/deep/typed.py:5 imports services.shared",
        "projections/top.py:1 imports api.config",
        "projections/top.py:1 imports api.config.Settings",
    ]
    relative = [(n, m) for n, m in imports(tmp_path / "projections/deep/typed.py", tmp_path)
                if n in (6, 7)]  # fmt: skip
    assert sorted(relative) == [
        (6, "projections"), (6, "projections.top"),
        (7, "projections.top"), (7, "projections.top.Settings"),
    ]  # fmt: skip
    assert breaches(STORE_RULE, tmp_path) == [
        "domain/store/branches.py:1 imports domain.wolves.analysis"
    ]
