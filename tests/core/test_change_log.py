"""Every write through the Library facade leaves change_log rows in its own transaction (SQLite
here; PostgreSQL in test_shared_library.py): which papers, which operation, who."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_app.core.changelog.changes import ChangeFeed
from desktop_app.core.errors import LibraryError
from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult, Record


def test_facade_writes_are_logged_in_their_transaction(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MARGINALIA_ACTOR", "ana")
    with Library.open(tmp_path / "lib") as lib:
        report = lib.imports.from_records(
            [
                (
                    "t.bib",
                    ParseResult(
                        "bibtex",
                        [Record(title="A", abstract="First abstract."), Record(title="B", abstract="Second abstract.")],
                    ),
                )
            ]
        )
        a, b = sorted(report.paper_ids)
        feed = ChangeFeed(lib.store, 0)
        assert [(r.kind, r.paper_id, r.actor) for r in feed.pull()] == [
            ("imports.from_records", a, "ana"),
            ("imports.from_records", b, "ana"),
        ]
        lib.tags.add([a, b], ["x"])
        lib.papers.set_status([b], "read")
        lib.notes.set(a, "n")
        lib.highlights.add_quote(a, "First")
        lib.lists.create("L")  # no paper: one library-wide row
        lib.lists.add("L", [b])
        assert [(r.kind, r.paper_id) for r in feed.pull()] == [
            ("tags.add", a),
            ("tags.add", b),
            ("papers.set_status", b),
            ("notes.set", a),
            ("highlights.add_quote", a),
            ("lists.create", None),
            ("lists.add", b),
        ]
        with pytest.raises(LibraryError):
            lib.notes.set(99999, "no such paper")  # rolled back: no row
        lib.tags.add([a], ["x"])  # nothing new, still an operation on a: logged
        assert [(r.kind, r.paper_id) for r in feed.pull()] == [("tags.add", a)]
        assert lib.server is None
        with pytest.raises(LibraryError, match="only a shared library"):
            lib.follow()


def test_writes_are_registered_by_their_mark_not_their_annotation() -> None:
    """``@writes`` decides what is logged: a write spelt ``-> Change | None`` is logged, a
    method that merely returns a Change without the mark is not."""
    from desktop_app.core.changelog.changes import log_mutations, writes
    from desktop_app.core.values import Change

    class Manager:
        @writes
        def maybe(self) -> Change | None:
            return None

        def reads(self) -> Change:
            return Change("papers", ())

    m = log_mutations(Manager(), "m")
    assert getattr(vars(m)["maybe"], "__marginalia_logged__", False)
    assert "reads" not in vars(m)


def test_every_write_of_every_manager_carries_the_mark(tmp_path: Path) -> None:
    """A guard for the next engineer: a public manager method that returns a Change or an
    ImportReport is a write and must say so with ``@writes`` (or it would not be logged)."""
    import inspect

    from desktop_app.core.changelog.changes import WRITE_MARK

    with Library.open(tmp_path / "lib") as lib:
        for name in (
            "papers",
            "tags",
            "notes",
            "lists",
            "searches",
            "highlights",
            "imports",
            "duplicates",
            "attachments",
            "trash",
        ):
            cls = type(getattr(lib, name))
            for attr, fn in inspect.getmembers(cls, inspect.isfunction):
                returns = str(inspect.signature(fn).return_annotation).strip("'")
                if attr.startswith("_") or returns not in {"Change", "ImportReport", "Change | None"}:
                    continue
                assert getattr(fn, WRITE_MARK, False), f"{cls.__name__}.{attr} returns {returns} without @writes"


def test_every_mutating_manager_method_is_named(tmp_path: Path) -> None:
    """The wrapping finds each public method marked @writes (the facade's writes)."""
    with Library.open(tmp_path / "lib") as lib:
        for name in (
            "papers",
            "tags",
            "notes",
            "lists",
            "searches",
            "highlights",
            "imports",
            "duplicates",
            "attachments",
        ):
            manager = getattr(lib, name)
            wrapped = [attr for attr, value in vars(manager).items() if getattr(value, "__marginalia_logged__", False)]
            assert wrapped, name
        assert {"set_status", "set_rating", "delete", "restore", "set_title"} <= set(vars(lib.papers))
