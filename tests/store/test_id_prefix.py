"""A game named by the beginning of its id (``services.library.game_by_prefix``), as the
command line and the API take it, on both backends."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.store import GameLibrary
from domain.wolves.records import read_record, write_record
from services.library import game_by_prefix
from services.refusals import Refusal

RECORD = write_record(read_record((Path(__file__).parents[1] / "fixtures" / "the-wolves" /
                                   "2p-00-heuristic.json").read_bytes()))  # fmt: skip
TWINS = ("Game 39754", "Game 76661")
"""Two titles whose records' game ids share their first 8 hex digits (found by trying)."""


def titled(title: str) -> bytes:
    """The fixture record with another ``meta.title``."""
    head, _, tail = RECORD.partition(b'"title":"')
    return head + b'"title":"' + title.encode() + b'"' + tail.partition(b'"')[2]


def test_a_prefix_names_its_one_game_and_an_ambiguous_one_lists_the_matches(
    library: GameLibrary,
) -> None:
    a, b = (library.upload(titled(title)).game_id for title in TWINS)
    other = library.upload(RECORD).game_id
    assert a.hex[:8] == b.hex[:8] != other.hex[:8], "the twin titles no longer collide"
    with pytest.raises(Refusal) as caught:
        game_by_prefix(library, a.hex[:8])
    assert (caught.value.status, caught.value.kind) == (409, "ambiguous_id")
    assert sorted(caught.value.extra["matches"]) == sorted([str(a), str(b)])
    assert str(a) in caught.value.detail and "give more digits" in caught.value.detail
    longer = next(n for n in range(9, 33) if a.hex[:n] != b.hex[:n])
    assert game_by_prefix(library, a.hex[:longer].upper()) == a
    assert game_by_prefix(library, str(other)[:13]) == other  # with the id's dash
    for text, status in ((other.hex[:7], 404), ("not-an-id", 404), (str(other)[:9] + "x", 404)):
        with pytest.raises(Refusal) as refused:
            game_by_prefix(library, text)
        assert refused.value.status == status and refused.value.kind == "unknown_game"
