"""A role without a privilege gets one line naming the GRANT, no traceback:
PostgreSQL's "permission denied" (InsufficientPrivilege) becomes PermissionDenied, in the
library (the window shows its message) and on the command line."""

from __future__ import annotations

import pytest

from desktop_app.cli import main
from desktop_app.core.errors import LibraryError, PermissionDenied
from desktop_app.core.library import Library
from desktop_app.core.records import ParseResult, Record
from tests.helpers.pg_fixtures import *  # noqa: F403 - pg_server, pg_url

pytestmark = pytest.mark.postgresql
psycopg = pytest.importorskip("psycopg", reason="psycopg is a test dependency (pip install -e '.[test]')")


def _as(url: str, role: str) -> str:
    assert url.startswith("postgresql://postgres@")
    return url.replace("postgresql://postgres@", f"postgresql://{role}@", 1)


@pytest.fixture
def library_with_a_paper(pg_url: str) -> tuple[str, int]:
    with Library.open(pg_url) as lib:
        report = lib.imports.from_records([("t.bib", ParseResult("bibtex", [Record(title="A paper", doi="10.1/x")]))])
    return pg_url, report.paper_ids[0]


def _role(url: str, name: str, *grants: str) -> str:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"DROP ROLE IF EXISTS {name}")
        conn.execute(f"CREATE ROLE {name} LOGIN")
        for grant in grants:
            conn.execute(grant.format(role=name))
    return _as(url, name)


def test_a_member_without_the_tag_tables_gets_the_grant_to_ask_for(
    library_with_a_paper: tuple[str, int], capsys: pytest.CaptureFixture[str]
) -> None:
    url, pid = library_with_a_paper
    bob = _role(
        url,
        "bob_tags",
        "GRANT SELECT ON ALL TABLES IN SCHEMA public TO {role}",
        "GRANT INSERT, UPDATE ON paper, note, change_log TO {role}",
        "GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {role}",
    )
    with Library.open(bob) as lib:
        assert not lib.read_only
        with pytest.raises(PermissionDenied) as caught:
            lib.tags.add([pid], ["rl"])
        assert str(caught.value) == (
            "the role 'bob_tags' may not write table tag: a library owner runs GRANT "
            "SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO bob_tags"
        )
        assert lib.papers.get(pid).tags == []  # nothing of it was kept
    assert main(["--library", bob, "tag", str(pid), "--add", "rl"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES" in err
    assert "Traceback" not in err


def test_a_role_that_may_not_read_is_told_at_open(
    library_with_a_paper: tuple[str, int], capsys: pytest.CaptureFixture[str]
) -> None:
    url, _pid = library_with_a_paper
    nobody = _role(url, "nobody_reads")
    with pytest.raises(LibraryError) as caught:
        Library.open(nobody)
    assert isinstance(caught.value, PermissionDenied)
    assert "the role 'nobody_reads' may not read table" in str(caught.value)
    assert "GRANT SELECT ON ALL TABLES IN SCHEMA public TO nobody_reads" in str(caught.value)
    assert main(["--library", nobody, "list"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "GRANT SELECT ON ALL TABLES" in err


def test_a_member_without_the_sequences_is_told_which_grant(library_with_a_paper: tuple[str, int]) -> None:
    url, pid = library_with_a_paper
    eve = _role(url, "eve_seq", "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role}")
    with Library.open(eve) as lib, pytest.raises(PermissionDenied) as caught:
        lib.tags.add([pid], ["rl"])
    assert "may not use sequence" in str(caught.value)
    assert "GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO eve_seq" in str(caught.value)


def test_a_member_cannot_upgrade_the_schema_and_is_told_who_can(library_with_a_paper: tuple[str, int]) -> None:
    from alembic import command

    from desktop_app.core.shared_library import make_engine
    from desktop_app.core.store import migrate as db

    url, _pid = library_with_a_paper
    engine = make_engine(url)
    try:
        with engine.begin() as conn:  # the library as an older Marginalia left it
            cfg = db.alembic_config()
            cfg.attributes["connection"] = conn
            command.downgrade(cfg, "0008")
    finally:
        engine.dispose()
    lin = _role(
        url,
        "lin_member",
        "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role}",
        "GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {role}",
    )
    with pytest.raises(PermissionDenied) as caught:
        Library.open(lin)
    assert str(caught.value).startswith("the role 'lin_member' may not upgrade the shared library's tables")
    assert str(caught.value).endswith("the library's owner opens it once with this version of Marginalia")
    with Library.open(url) as lib:  # the owner can; then the member opens it
        assert lib.server is not None
    with Library.open(lin) as lib:
        assert not lib.read_only


def _sql_blocks(text: str) -> list[str]:
    """The ```sql blocks of a Markdown page, without psql's backslash commands and comments."""
    blocks = text.split("```sql\n")[1:]
    return [
        "\n".join(line for line in b.split("```", 1)[0].splitlines() if not line.startswith(("\\", "--")))
        for b in blocks
    ]


def test_the_setup_in_docs_shared_library_md_works(pg_server: str) -> None:
    """Sections 2 and 3 of docs/shared-library.md, as written, on a throwaway server: the owner's
    library, a member who writes, a read-only member."""
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "shared-library.md").read_text("utf-8")
    create, roles, people = _sql_blocks(page)[:3]
    with psycopg.connect(pg_server, autocommit=True) as admin:
        for role in ("lin", "guest", "lab_members", "lab_readers"):
            admin.execute(f"DROP ROLE IF EXISTS {role}")
        admin.execute("DROP DATABASE IF EXISTS papers")
        admin.execute("DROP ROLE IF EXISTS lab_owner")
        for statement in filter(str.strip, create.split(";")):
            admin.execute(statement)
        admin.execute("ALTER ROLE lab_owner CREATEROLE")  # "or the administrator runs those lines"
    owner = pg_server.replace("postgresql://postgres@/postgres?", "postgresql://lab_owner@/papers?", 1)
    with Library.open(owner) as lib:  # the owner opens it once: the tables
        pid = lib.imports.from_records([("t.bib", ParseResult("bibtex", [Record(title="P", doi="10.2/p")]))]).paper_ids[
            0
        ]
    with psycopg.connect(owner, autocommit=True) as conn:
        for statement in filter(str.strip, (roles + ";" + people).split(";")):
            conn.execute(statement)
    with Library.open(_as(owner.replace("lab_owner@", "postgres@", 1), "lin")) as lib:
        assert not lib.read_only
        lib.tags.add([pid], ["rl"])
        lib.notes.set(pid, "a member's note")
    with Library.open(_as(owner.replace("lab_owner@", "postgres@", 1), "guest")) as lib:
        assert lib.read_only
        assert lib.papers.get(pid).tags == ["rl"] and lib.papers.get(pid).note == "a member's note"
