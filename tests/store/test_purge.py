"""``howl purge`` deletes a withdrawn game for good (its stream, comments, branches and
reviews), and ``howl players merge`` makes two names one player, run as the installed
command on both backends."""

from __future__ import annotations

import uuid

import pytest

from domain.documents import Annotation
from domain.store import GameLibrary, StoreConfig, UnknownGame
from domain.store.comments import add_comments, comments_id
from domain.store.players import aliases
from domain.store.purge import streams_of
from projections.analysis import Analyses, default_settings
from projections.readmodels import ReadModels
from tests.store.conftest import howl, record_bytes


def open_store(env: dict[str, str]) -> GameLibrary:
    return GameLibrary.open(
        StoreConfig(env["HOWL_DATABASE_URL"], schema=env["HOWL_DATABASE_SCHEMA"])
    )


def test_only_a_withdrawn_game_is_purged_and_then_it_may_be_stored_again(
    env: dict[str, str],
) -> None:
    record = record_bytes(2, seed=431)
    with open_store(env) as library:
        game_id = library.upload(record, uploaded_by="ana").game_id
        kept = library.upload(record_bytes(2, seed=432)).game_id
        add_comments(library, game_id, [Annotation(3, "ana", "a fine den")])
    refused = howl(env, "purge", str(game_id), "--yes")
    assert refused.returncode == 1 and b"is not withdrawn" in refused.stderr
    assert howl(env, "purge", str(game_id)[:8], "--yes").returncode == 2  # a whole id only
    with open_store(env) as library, open_store(env) as elsewhere:
        elsewhere.state_at(game_id, 1)  # another process keeps the game's states
        library.withdraw(game_id)
        assert len(streams_of(library, game_id)) == 3  # the game, its comments, the comment
        again = howl(env, "import", "-", stdin=record)
        assert again.returncode == 1 and b"was withdrawn by its uploader" in again.stdout
        purged = howl(env, "purge", str(game_id), "--yes")
        assert purged.returncode == 0, purged.stderr.decode()
        assert b"purged game" in purged.stdout and b"in 3 streams" in purged.stdout
        with pytest.raises(UnknownGame):
            elsewhere.state_at(game_id, 1)
    with open_store(env) as library:
        assert not library.exists(game_id) and library.exists(kept)
        assert not library.recorder.select_events(comments_id(game_id))
        assert library.upload(record).created  # stored anew
    gone = howl(env, "purge", str(uuid.uuid4()), "--yes")
    assert gone.returncode == 1 and b"no game" in gone.stderr


def test_a_purge_deletes_the_games_reviews_and_a_rebuild_never_sees_it(
    env: dict[str, str],
) -> None:
    url, schema = env["HOWL_DATABASE_URL"], env["HOWL_DATABASE_SCHEMA"]
    with open_store(env) as library:
        game_id = library.upload(record_bytes(2, seed=433)).game_id
        other = library.upload(record_bytes(2, seed=434)).game_id
        library.withdraw(game_id)
    analyses_url = url if url.startswith("sqlite") else f"{url}?options=-csearch_path%3D{schema}"
    reviews = Analyses(analyses_url)
    reviews.enqueue(game_id, default_settings())
    assert howl(env, "purge", str(game_id), "--yes").returncode == 0
    assert reviews.status(game_id, default_settings().key)["status"] == "none"
    with open_store(env) as library, ReadModels(url, schema) as models:
        models.rebuild(library)
        assert [g["game_id"] for g in models.list_games().items] == [str(other)]


def test_merging_players_from_the_command_line(env: dict[str, str]) -> None:
    merged = howl(env, "players", "merge", "Bob", "Bo")
    assert merged.returncode == 0 and b"merged Bob into Bo" in merged.stdout
    again = howl(env, "players", "merge", "BOB", "bo")
    assert again.returncode == 0 and b"one player already" in again.stdout
    assert howl(env, "players", "merge", " ", "Bo").returncode == 2
    with open_store(env) as library:
        assert aliases(library).player("Bob") == "bo"
