"""Domain events ↔ JSON-able dicts, for the event store and the API.

An event becomes ``{"type": <class name>, <field>: <value>, …}``: hexes and tuples as
lists, the nested ``Paid``, ``Moved``, ``Standing`` and ``FinalScore`` as dicts. Decoding
follows the event classes' type hints, so both directions stay in step with ``events.py``.

>>> from domain.wolves.events import WolvesDrafted
>>> event_to_json(WolvesDrafted(player=0, hex=(5, 7)))
{'type': 'WolvesDrafted', 'player': 0, 'hex': [5, 7]}
>>> event_from_json({'type': 'WolvesDrafted', 'player': 0, 'hex': [5, 7]})
WolvesDrafted(player=0, hex=(5, 7))
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from functools import cache, partial
from types import SimpleNamespace
from typing import Any

from domain.wolves import events as ev
from domain.wolves.actions import ActionType

EVENT_TYPES: Mapping[str, type[ev.Event]] = types.MappingProxyType(
    {cls.__name__: cls for cls in typing.get_args(ev.Event)}
)
"""Every domain event class by its stored type name (the class name)."""
ACTION_NAMES: Mapping[str, ActionType] = types.MappingProxyType(
    {cls.__name__: kind for cls, kind in ev.ACTION_TYPES.items()}
)
"""The record action type of each action event, by stored type name."""


def event_to_json(event: ev.Event) -> dict[str, Any]:
    """A JSON-able dict of ``event``, with its type name under ``"type"``."""
    cls: type = type(event)
    return {"type": cls.__name__, **_encode_fields(_encoders(cls), event)}


Stored = dict[str, Any]
"""A domain event as the event store keeps it: ``{"type": <class name>, "data": <fields>}``."""


def stored(event: ev.Event) -> Stored:
    """``event`` as the event store keeps it (see :data:`Stored`)."""
    data = event_to_json(event)
    return {"type": data.pop("type"), "data": data}


def from_stored(kind: str, data: Mapping[str, Any]) -> ev.Event:
    """The event the store keeps as type name ``kind`` and fields ``data`` (see :data:`Stored`)."""
    cls = EVENT_TYPES.get(kind)
    if cls is None:
        raise ValueError(f"unknown event type {kind!r}")
    event: ev.Event = _decode(cls, data)
    return event


def view(kind: str, data: Mapping[str, Any]) -> Any:
    """The fields of the event the store keeps as type ``kind`` and fields ``data``, as
    attributes (hexes and tuples as tuples, nested values as views too), without building
    the event: what ``evolve.handler``'s functions read, at a fraction of the cost of
    decoding. It checks nothing: for events this codec stored.

    >>> view("WolvesDrafted", {"player": 0, "hex": [5, 7]})
    namespace(player=0, hex=(5, 7))
    >>> view("TurnEnded", {"player": 0, "next_player": 1, "stalled_rounds": 0}).tokens_left
    0
    """
    return viewer(kind)(data)


@cache
def viewer(kind: str) -> typing.Callable[[Mapping[str, Any]], Any]:
    """:func:`view` of events of the stored type ``kind``, as a function of their fields:
    one expression, made from the event class's type hints and compiled once."""
    source = _view_source(EVENT_TYPES[kind], "v", 0)
    found: typing.Callable[[Mapping[str, Any]], Any] = eval(
        f"lambda v: {source}", {"_NS": SimpleNamespace}
    )
    return found


def _view_source(hint: Any, value: str, depth: int) -> str:
    """The expression viewing the JSON value the expression ``value`` gives, of type
    ``hint``: a dataclass as a namespace of its fields (a missing field as its default),
    a tuple as a tuple, anything else as it is."""
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        hints, fields = _hints(hint), []
        for f in dataclasses.fields(hint):
            missing = f.default is dataclasses.MISSING
            item = f"{value}[{f.name!r}]" if missing else f"{value}.get({f.name!r}, {f.default!r})"
            fields.append(f"{f.name}={_view_source(hints[f.name], item, depth)}")
        return f"_NS({', '.join(fields)})"
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        (inner,) = [a for a in args if a is not type(None)]
        shown = _view_source(inner, value, depth)
        return value if shown == value else f"(None if {value} is None else {shown})"
    if origin is tuple:
        item = f"x{depth}"
        items = {_view_source(a, item, depth + 1) for a in args if a is not Ellipsis}
        if items == {item}:
            return f"tuple({value})"
        (shown,) = items  # a tuple of dataclasses: one kind of item
        return f"tuple([{shown} for {item} in {value}])"
    return value


def event_from_json(doc: Mapping[str, Any]) -> ev.Event:
    """The event a dict made by :func:`event_to_json` describes."""
    data = dict(doc)
    name = data.pop("type", None)
    if not isinstance(name, str):
        raise ValueError(f"unknown event type {name!r}")
    return from_stored(name, data)


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls, vars(ev))


Encoder = typing.Callable[[Any], Any] | None
"""How one field is encoded: None when its value is JSON-able as it is."""


@cache
def _encoders(cls: type) -> tuple[tuple[str, Encoder], ...]:
    """Each field of the dataclass ``cls`` with its encoder, built once per class."""
    hints = _hints(cls)
    return tuple((f.name, _encoder(hints[f.name])) for f in dataclasses.fields(cls))


def _encode_fields(parts: tuple[tuple[str, Encoder], ...], value: Any) -> dict[str, Any]:
    out = {}
    for name, encode in parts:
        field_value = getattr(value, name)
        out[name] = field_value if encode is None else encode(field_value)
    return out


@cache
def _encoder(hint: Any) -> Encoder:
    """The encoder of values of type ``hint``: dataclasses as dicts, tuples as lists."""
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return partial(_encode_fields, _encoders(hint))
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        (inner,) = [a for a in args if a is not type(None)]
        enc = _encoder(inner)
        return None if enc is None else (lambda value: None if value is None else enc(value))
    if origin is tuple:
        items = {_encoder(a) for a in args if a is not Ellipsis}
        if items == {None}:
            return list
        (item,) = items
        assert item is not None
        return lambda value: [item(v) for v in value]
    return None


def _decode(hint: Any, value: Any) -> Any:
    return _decoder(hint)(value)


@cache
def _decoder(hint: Any) -> typing.Callable[[Any], Any]:
    """A function decoding JSON values of type ``hint``, built once per type."""
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        hints = _hints(hint)
        parts = [(f.name, _decoder(hints[f.name])) for f in dataclasses.fields(hint)]
        names = frozenset(name for name, _ in parts)
        fast = [(name, None if decode is _same else decode) for name, decode in parts]

        def dataclass_(value: Any) -> Any:
            if len(value) == len(fast):  # every field, in order: no keywords to match
                try:
                    return hint(*[value[k] if d is None else d(value[k]) for k, d in fast])
                except KeyError:
                    pass
            if not names.issuperset(value):
                unknown = sorted(set(value) - names)
                raise ValueError(f"{hint.__name__} has no field(s) {unknown}")
            return hint(**{k: decode(value[k]) for k, decode in parts if k in value})

        return dataclass_
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        (inner,) = [a for a in args if a is not type(None)]
        decode_inner = _decoder(inner)
        return lambda value: None if value is None else decode_inner(value)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item = _decoder(args[0])
            if item is _same:
                return tuple
            return lambda value: tuple([item(v) for v in value])
        items = [_decoder(a) for a in args]
        if all(d is _same for d in items):
            return partial(_plain_tuple, len(items))
        return lambda value: tuple(d(v) for d, v in zip(items, value, strict=True))
    return _same


def _plain_tuple(size: int, value: Any) -> tuple[Any, ...]:
    out = tuple(value)
    if len(out) != size:
        raise ValueError(f"expected {size} items, got {len(out)}")
    return out


def _same(value: Any) -> Any:
    return value
