"""Settings come from HOWL_… environment variables, with documented defaults."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from api.cli import main
from services.config import Settings, parse_api_tokens


def test_defaults(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # the working directory does not choose the store
    settings = Settings.from_env({"HOME": "/home/ana"})
    assert settings.database_url == "sqlite:////home/ana/.local/share/howl/howl.db"
    data = Settings.from_env({"HOME": "/home/ana", "XDG_DATA_HOME": str(tmp_path / "data")})
    assert data.database_url == f"sqlite:///{tmp_path / 'data' / 'howl' / 'howl.db'}"
    assert (settings.host, settings.port) == ("127.0.0.1", 8050)
    assert dict(settings.api_tokens) == {}
    assert settings.max_upload_bytes == 2 * 1024 * 1024
    assert (settings.workers, settings.threads) == (os.cpu_count() or 1, 4)
    assert (settings.max_actions, settings.cached_games) == (5000, 128)
    assert settings.analysis and settings.analysis_depth == "standard"
    assert (settings.analysis_playouts, settings.analysis_candidates) == (None, None)  # the depth's
    assert settings.analysis_processes == 0


def test_values_from_the_environment() -> None:
    settings = Settings.from_env(
        {
            "HOWL_DATABASE_URL": "postgresql://howl@db/howl",
            "HOWL_HOST": "0.0.0.0",
            "HOWL_PORT": "9000",
            "HOWL_API_TOKENS": "alice:a1, bob:b2",
            "HOWL_MAX_UPLOAD_BYTES": "1000",
            "HOWL_WORKERS": "2",
            "HOWL_THREADS": "4",
            "HOWL_MAX_ACTIONS": "300",
            "HOWL_CACHED_GAMES": "16",
            "HOWL_ANALYSIS": "off",
            "HOWL_ANALYSIS_DEPTH": "Deep",
            "HOWL_ANALYSIS_PLAYOUTS": "2",
            "HOWL_ANALYSIS_CANDIDATES": "1",
            "HOWL_ANALYSIS_PROCESSES": "1",
        }
    )
    assert settings == Settings(
        "postgresql://howl@db/howl", "0.0.0.0", 9000, {"alice": "a1", "bob": "b2"}, 1000, 2, 4,
        max_actions=300, cached_games=16, analysis=False, analysis_depth="deep",
        analysis_playouts=2,
        analysis_candidates=1, analysis_processes=1,
    )  # fmt: skip


@pytest.mark.parametrize(
    "text",
    [
        "alice",
        "alice:",
        ":tok",
        "alice:a,alice:b",
        '{"ana": "walk-token"}',
        "a b:tok",
        "dashboard:tok",
        "ana:a,demo:d",
    ],  # the last two: uploaders the service stores itself
)
def test_malformed_tokens_are_refused(text: str) -> None:
    with pytest.raises(ValueError, match="HOWL_API_TOKENS"):
        parse_api_tokens(text)


def test_malformed_numbers_are_refused() -> None:
    with pytest.raises(ValueError, match="HOWL_PORT"):
        Settings.from_env({"HOWL_PORT": "eighty"})
    with pytest.raises(ValueError, match="HOWL_THREADS"):
        Settings.from_env({"HOWL_THREADS": "0"})
    with pytest.raises(ValueError, match="HOWL_ANALYSIS"):
        Settings.from_env({"HOWL_ANALYSIS": "sometimes"})


@pytest.mark.parametrize(
    ("variable", "value", "said"),
    [
        ("HOWL_PORT", "eighty", "HOWL_PORT must be an integer, got 'eighty'"),
        ("HOWL_API_TOKENS", "dashboard:tok", "HOWL_API_TOKENS names 'dashboard'"),
        (
            "HOWL_ANALYSIS_DEPTH",
            "abyssal",
            "HOWL_ANALYSIS_DEPTH must be one of quick, standard, deep, got 'abyssal'",
        ),
    ],
)
def test_a_command_says_a_bad_setting_in_one_line(
    variable: str, value: str, said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOWL_DATABASE_URL", f"sqlite:///{tmp_path}/howl.sqlite3")
    monkeypatch.setenv(variable, value)
    result = CliRunner().invoke(main, ["tables"])
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: {said}")
    assert "Traceback" not in result.output and len(result.output.splitlines()) == 1
    assert not (tmp_path / "howl.sqlite3").exists()  # nothing opened
