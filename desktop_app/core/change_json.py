"""A :class:`~desktop_app.core.values.Change` written down as JSON and read back equal, undo data
and all: what ``Library.apply_once`` records with an edit's id, so that an edit sent again
after its answer was lost gets the Change (and so the undo) of the time it was applied.

Values JSON has no form for are tagged: a tuple ``{"$tuple": [...]}``, a dict whose keys are not
all text ``{"$dict": [[key, value], ...]}``, a time ``{"$datetime": iso}``, undo data (a frozen
dataclass of core/changelog/undo_data.py) ``{"$shape": name, "fields": {...}}``. Only those
dataclasses are made back: a name read from the database builds nothing else.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from datetime import date, datetime
from typing import Any

from desktop_app.core.changelog import undo_data
from desktop_app.core.values import Change

_SCALARS = (str, int, float, bool, type(None))
_TAGS = frozenset({"$tuple", "$dict", "$datetime", "$date", "$shape"})


class NotWritable(ValueError):
    """A value of the Change that this module has no form for."""


def dumps(change: Change) -> str | None:
    """The Change as JSON text; None when some value of it has no form here."""
    try:
        return json.dumps(
            {
                "kind": str(change.kind),
                "paper_ids": list(change.paper_ids),
                "tag_names": list(change.tag_names),
                "list_ids": list(change.list_ids),
                "text_changed": change.text_changed,
                "detail": _encoded(change.detail),
            },
            ensure_ascii=False,
            allow_nan=False,
        )
    except (NotWritable, ValueError):
        return None


def loads(text: str) -> Change:
    """The Change :func:`dumps` wrote. Raises ValueError when the text is not one."""
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("not a written-down change")
    try:
        detail = _decoded(data.get("detail"))
        if not isinstance(detail, undo_data.UndoData):
            raise ValueError("the change's undo data is not undo data")
        return Change(
            data["kind"],
            tuple(int(i) for i in data.get("paper_ids", ())),
            tuple(str(n) for n in data.get("tag_names", ())),
            tuple(int(i) for i in data.get("list_ids", ())),
            bool(data.get("text_changed", False)),
            detail,
        )
    except (KeyError, TypeError) as exc:  # a field missing or of another type, an unhashable key
        raise ValueError(f"not a written-down change: {exc}") from exc


def _shape(name: object) -> type:
    cls = getattr(undo_data, name, None) if isinstance(name, str) and not name.startswith("_") else None
    if not isinstance(cls, type) or not is_dataclass(cls) or cls.__module__ != undo_data.__name__:
        raise ValueError(f"not a shape of undo data: {name!r:.80}")
    return cls


def _encoded(value: Any) -> Any:  # noqa: ANN401 - any value of undo data
    if isinstance(value, _SCALARS):
        return value
    if isinstance(value, list):
        return [_encoded(v) for v in value]
    if isinstance(value, tuple):
        return {"$tuple": [_encoded(v) for v in value]}
    if isinstance(value, Mapping):  # a dict, or undo data's read-only view of one
        if all(isinstance(k, str) for k in value) and not _TAGS & set(value):
            return {k: _encoded(v) for k, v in value.items()}
        return {"$dict": [[_encoded(k), _encoded(v)] for k, v in value.items()]}
    if isinstance(value, datetime):
        return {"$datetime": value.isoformat()}
    if isinstance(value, date):
        return {"$date": value.isoformat()}
    if is_dataclass(value) and not isinstance(value, type):
        name = type(value).__name__
        if _shape(name) is not type(value):
            raise NotWritable(f"not undo data: {type(value).__name__}")
        return {"$shape": name, "fields": {f.name: _encoded(getattr(value, f.name)) for f in fields(value)}}
    raise NotWritable(f"no JSON form for {type(value).__name__}")


def _decoded(value: Any) -> Any:  # noqa: ANN401 - a JSON value
    if isinstance(value, list):
        return [_decoded(v) for v in value]
    if not isinstance(value, dict):
        if not isinstance(value, _SCALARS):
            raise ValueError(f"not a JSON value: {value!r:.80}")
        return value
    tag = _TAGS & set(value)
    if not tag:
        return {k: _decoded(v) for k, v in value.items()}
    if "$tuple" in tag:
        return tuple(_decoded(v) for v in value["$tuple"])
    if "$dict" in tag:
        return {_decoded(k): _decoded(v) for k, v in value["$dict"]}
    if "$datetime" in tag:
        return datetime.fromisoformat(value["$datetime"])
    if "$date" in tag:
        return date.fromisoformat(value["$date"])
    cls = _shape(value["$shape"])
    kwargs = value.get("fields", {})
    if not isinstance(kwargs, dict):
        raise ValueError("a shape's fields are not an object")
    return cls(**{str(k): _decoded(v) for k, v in kwargs.items()})
