"""The comments' streams in the store, on SQLite and PostgreSQL: a game's comments read
through their snapshots are the ones its events fold to, the game's own stream is never
written, and a comment is found by its id alone."""

from __future__ import annotations

from functools import reduce
from typing import Any

import pytest

from domain.documents import Annotation
from domain.store import GameLibrary
from domain.store.comments import (
    SNAPSHOT_EVERY,
    Comments,
    NotAuthor,
    UnknownComment,
    add_comments,
    comments_id,
    find_comment,
    game_comments,
    remove_comment,
)
from tests.api.conftest import record_of
from tests.comments.conftest import GAME

OTHER = "2p-06-random"


def test_comments_read_through_snapshots_are_those_their_events_fold_to(store_url: str) -> None:
    with GameLibrary.open(store_url) as library:
        game_id = library.upload(record_of(GAME)).game_id
        game_version = library.info(game_id)
        made = []
        for i in range(2 * SNAPSHOT_EVERY + 7):
            made += add_comments(library, game_id, [Annotation(i % 78, "ana", f"n{i}")])
        for comment in made[::9]:
            remove_comment(library, comment.comment_id, "ana", anyone=False)
        assert library.snapshots is not None
        snapshots = list(library.snapshots.get(comments_id(game_id)))
        assert len(snapshots) >= 2  # the reads below start from the last one
        events: list[Any] = list(library.events.get(comments_id(game_id)))
        folded = reduce(lambda aggregate, e: e.mutate(aggregate), events, None)
        assert isinstance(folded, Comments)
        expected = sorted(folded.comments(), key=lambda c: c.step)
        assert game_comments(library, game_id) == expected
        assert len(expected) == len(made) - len(made[::9])
        assert find_comment(library, made[1].comment_id) == made[1]
        assert library.info(game_id) == game_version  # the game's stream is as it was


def test_a_removed_comment_is_gone_and_only_its_author_removes_one(store_url: str) -> None:
    with GameLibrary.open(store_url) as library:
        game_id = library.upload(record_of(OTHER)).game_id  # the module's database: its own game
        notes = [Annotation(1, "ana", "a"), Annotation(2, "bo", "b")]
        ana, bo = add_comments(library, game_id, notes)
        with pytest.raises(NotAuthor):
            remove_comment(library, ana.comment_id, "bo", anyone=False)
        with pytest.raises(NotAuthor):
            remove_comment(library, ana.comment_id, None, anyone=False)
        remove_comment(library, bo.comment_id, None, anyone=True)  # no tokens configured
        with pytest.raises(UnknownComment):
            find_comment(library, bo.comment_id)
        with pytest.raises(UnknownComment):
            remove_comment(library, bo.comment_id, "bo", anyone=False)
        with pytest.raises(UnknownComment):
            find_comment(library, game_id)  # a game's id names no comment
        assert game_comments(library, game_id) == [ana]
