"""The store's mapper of domain events to stored ones: eventsourcing's JSON format, read
with orjson."""

from __future__ import annotations

from datetime import datetime
from functools import cache
from typing import Any
from uuid import UUID

import orjson
from eventsourcing.persistence import (
    DatetimeAsISO,
    DecimalAsStr,
    JSONTranscoder,
    Mapper,
    UUIDAsHex,
)

TIMES = DatetimeAsISO()
"""How the store keeps a time: ISO 8601 text."""


@cache
def store_mapper() -> Mapper[UUID]:
    """How the store keeps its events, the same in every process: eventsourcing's JSON (its
    UUID, Decimal and datetime transcodings, :class:`FastJSONTranscoder`), neither
    encrypted nor compressed."""
    transcoder = FastJSONTranscoder()
    for transcoding in (UUIDAsHex(), DecimalAsStr(), TIMES):
        transcoder.register(transcoding)
    return Mapper(transcoder=transcoder)


def kept_time(moment: datetime) -> dict[str, str]:
    """A time as the store's JSON keeps it: its transcoding's name and text (what
    ``JSONTranscoder`` writes for a value of a registered type)."""
    return {"_type_": TIMES.name, "_data_": TIMES.encode(moment)}


class FastJSONTranscoder(JSONTranscoder):
    """``JSONTranscoder`` whose stored bytes are read by orjson (several times faster than
    the ``json`` module's object hook): the same bytes are written, and the same objects
    come back. Its custom types, ``{"_type_": name, "_data_": …}``, are decoded inner ones
    first, as the hook does; a text orjson refuses is read by the ``json`` module.

    >>> from eventsourcing.persistence import UUIDAsHex
    >>> from uuid import UUID
    >>> t = FastJSONTranscoder()
    >>> t.register(UUIDAsHex())
    >>> t.decode(t.encode({"ids": [UUID(int=1)], "n": 1})) == {"ids": [UUID(int=1)], "n": 1}
    True
    """

    def decode(self, data: bytes) -> Any:
        try:
            doc = orjson.loads(data)
        except orjson.JSONDecodeError:
            return super().decode(data)
        return self._typed(doc)

    def _typed(self, value: Any) -> Any:
        """``value`` with every custom type in it decoded (its containers changed in place)."""
        if type(value) is dict:
            for key, item in value.items():
                if type(item) is dict or type(item) is list:
                    value[key] = self._typed(item)
            if len(value) == 2 and "_type_" in value and "_data_" in value:
                return self._decode_obj(value)
        elif type(value) is list:
            for i, item in enumerate(value):
                if type(item) is dict or type(item) is list:
                    value[i] = self._typed(item)
        return value
