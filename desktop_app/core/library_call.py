"""An edit of the library told as data: which manager method to call with which values, and
how to undo it from the ``Change`` it returned. Unlike a closure it can be written to a file
(core/store/outbox_journal.py), so an edit waiting for a shared library's server survives the
window that made it.

The undo is :data:`UNDO_CHANGE` (``lib.undo(change)``: the manager that made the Change reverses
it, core/undoing.py) unless the edit names another call, whose :class:`ChangeRef` arguments read
values of the Change; journals written before there was ``UNDO_CHANGE`` name their undo so."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field, is_dataclass, replace
from typing import TYPE_CHECKING, Any

from desktop_app.core.values import Change

if TYPE_CHECKING:
    from desktop_app.core.library import Library

# the Library's managers an edit may call (a journal file names no other attribute)
MANAGERS = frozenset(
    {"papers", "tags", "lists", "highlights", "searches", "trash", "topics", "imports", "duplicates", "attachments"}
)
_REF = "$change"  # the JSON key of a ChangeRef
_MISSING = object()


class BadCall(ValueError):
    """A described edit that cannot be read back (an unknown manager, a malformed value)."""


@dataclass(frozen=True)
class ChangeRef:
    """A value read from the Change of the edit being undone: ``("detail", "links")`` is
    ``change.detail.links``, ``("detail", "old", 0)`` the first item of ``change.detail.old``,
    ``("paper_ids",)`` its papers, ``()`` the Change itself.

    A name step reads the field of a Change or of its undo data (a dataclass) and indexes a
    mapping; a number step indexes a tuple or a list. Journals written when the undo data was a
    dict keep these paths, and the fields keep those keys' names. A value of the undo data reads
    as the plain value those journals were written against: its read-only mappings as dicts, a
    tuple as a list (its items as they are: the (paper, tag) pairs of ``links`` stay pairs)."""

    path: tuple[str | int, ...] = ()

    def resolve(self, change: Change | None) -> Any:  # noqa: ANN401 - whatever the Change holds
        if change is None:
            raise BadCall("a value of the edit's change is needed, and there is none")
        value: Any = change
        for step in self.path:
            if isinstance(step, str) and is_dataclass(value):
                # a journal is read from disk: it may read values, never a private or a method
                value = getattr(value, step, _MISSING) if not step.startswith("_") else _MISSING
                if value is _MISSING or callable(value):
                    raise BadCall(f"the edit's change has no value at {self.path!r}")
            else:
                value = value[step]
        return _plain(value) if len(self.path) > 1 and self.path[0] == "detail" else value


@dataclass(frozen=True)
class LibraryCall:
    """``lib.<manager>.<method>(*args, **kwargs)``; args may hold :class:`ChangeRef` values."""

    manager: str
    method: str
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.manager not in MANAGERS or not self.method.isidentifier() or self.method.startswith("_"):
            raise BadCall(f"not an edit of the library: {self.manager}.{self.method}")

    def __call__(self, lib: Library, change: Change | None = None) -> Change:
        method = getattr(getattr(lib, self.manager), self.method)
        args = [_resolved(a, change) for a in self.args]
        kwargs = {k: _resolved(v, change) for k, v in self.kwargs.items()}
        result: Change = method(*args, **kwargs)
        return result

    def to_json(self) -> dict[str, Any]:
        return {
            "manager": self.manager,
            "method": self.method,
            "args": [_encoded(a) for a in self.args],
            "kwargs": {k: _encoded(v) for k, v in self.kwargs.items()},
        }

    @classmethod
    def from_json(cls, data: object) -> LibraryCall:
        if (
            not isinstance(data, dict)
            or not isinstance(data.get("manager"), str)
            or not isinstance(data.get("method"), str)
            or not isinstance(data.get("args", []), list)
            or not isinstance(data.get("kwargs", {}), dict)
        ):
            raise BadCall(f"not a library call: {data!r:.80}")
        return cls(
            data["manager"],
            data["method"],
            tuple(_decoded(a) for a in data.get("args", [])),
            {str(k): _decoded(v) for k, v in data.get("kwargs", {}).items()},
        )


@dataclass(frozen=True)
class UndoChange:
    """``lib.undo(change)``: undo the Change the edit's do-call returned, by the manager method
    that reverses its shape of undo data (core/undoing.py). Use :data:`UNDO_CHANGE`."""

    def __call__(self, lib: Library, change: Change | None = None) -> Change:
        if change is None:
            raise BadCall("undoing an edit needs the change it returned, and there is none")
        return lib.undo(change)

    def to_json(self) -> dict[str, Any]:
        return {"method": "undo", "args": [{_REF: []}]}  # as it reads: lib.undo(<the change>)

    @classmethod
    def from_json(cls, data: object) -> UndoChange:
        if data != UNDO_CHANGE.to_json():
            raise BadCall(f"neither a library call nor the undo of a change: {data!r:.80}")
        return UNDO_CHANGE


UNDO_CHANGE = UndoChange()
Undoing = LibraryCall | UndoChange  # what a described edit's undo may be


@dataclass(frozen=True)
class DescribedEdit:
    """One undoable edit as data: its label, what does it, what undoes it (by default
    ``lib.undo`` of the Change ``do`` returned), and the id it is sent with (``lib.apply_once``:
    sent again after its answer was lost, it is not applied twice). ``edit_id`` None: an edit
    journaled by an earlier version, applied as it was then."""

    text: str
    do: LibraryCall
    undo: Undoing = UNDO_CHANGE
    edit_id: str | None = None

    def with_id(self) -> DescribedEdit:
        """This edit with an id of its own (a new UUID unless it has one)."""
        return self if self.edit_id is not None else replace(self, edit_id=uuid.uuid4().hex)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"text": self.text, "do": self.do.to_json(), "undo": self.undo.to_json()}
        if self.edit_id is not None:
            out["id"] = self.edit_id
        return out

    @classmethod
    def from_json(cls, data: object) -> DescribedEdit:
        if not isinstance(data, dict) or not isinstance(data.get("text"), str):
            raise BadCall(f"not an edit: {data!r:.80}")
        edit_id = data.get("id")
        if edit_id is not None and (not isinstance(edit_id, str) or not edit_id):
            raise BadCall(f"not an edit's id: {edit_id!r:.80}")
        undo = data.get("undo")
        # a call of a manager (the form every journal before UNDO_CHANGE wrote), or lib.undo
        undoing = (
            LibraryCall.from_json(undo) if isinstance(undo, dict) and "manager" in undo else UndoChange.from_json(undo)
        )
        return cls(data["text"], LibraryCall.from_json(data.get("do")), undoing, edit_id)


def _plain(value: Any) -> Any:  # noqa: ANN401 - a value of the undo data
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return list(value)
    return value


def _resolved(value: Any, change: Change | None) -> Any:  # noqa: ANN401 - a JSON value
    return value.resolve(change) if isinstance(value, ChangeRef) else value


_SCALARS = (str, int, float, bool, type(None))


def _encoded(value: Any) -> Any:  # noqa: ANN401 - a JSON value
    if isinstance(value, ChangeRef):
        return {_REF: list(value.path)}
    if isinstance(value, _SCALARS):
        return value
    if isinstance(value, list | tuple):
        return [_encoded(v) for v in value]
    if isinstance(value, Mapping) and all(isinstance(k, str) for k in value):
        return {k: _encoded(v) for k, v in value.items()}
    raise BadCall(f"cannot be written down: {value!r:.80}")


def _decoded(value: Any) -> Any:  # noqa: ANN401 - a JSON value
    if isinstance(value, dict):
        if set(value) == {_REF}:
            path = value[_REF]
            if not isinstance(path, list) or not all(isinstance(p, str | int) for p in path):
                raise BadCall(f"not a reference to a change: {value!r:.80}")
            return ChangeRef(tuple(path))
        return {k: _decoded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_decoded(v) for v in value]
    if isinstance(value, _SCALARS):
        return value
    raise BadCall(f"not a JSON value: {value!r:.80}")
