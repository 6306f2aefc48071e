"""Secrets stay secret: a password in ``--library`` (or ``share --to``) is
refused before anything runs, with the ways libpq finds one instead; no message shows one; a
libpq keyword string is a server, never a folder's name."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from desktop_app.cli import main
from desktop_app.core.conninfo import has_password, is_keyword_string, keyword_url, redact, scrub
from desktop_app.core.errors import LibraryError
from desktop_app.core.library import Library
from tests.helpers.pg_fixtures import *  # noqa: F403 - pg_server, pg_url

SECRET = "s3cr3t-Pa55"


def test_keyword_strings_are_told_from_folder_names() -> None:
    assert is_keyword_string("host=db.lab dbname=papers user=lin")
    assert is_keyword_string(f"host=db port=5432 password='{SECRET} x' sslmode=verify-full")
    for folder in ("papers", "/home/lin/library", "a=b", "my library", "host", "dbname=", ""):
        assert is_keyword_string(folder) is (folder == "dbname="), folder
    assert (
        keyword_url("host=/run/postgresql dbname=papers user=lin")
        == "postgresql:///?host=/run/postgresql&dbname=papers&user=lin"
    )
    assert keyword_url("dbname='my papers'") == "postgresql:///?dbname=my%20papers"


def test_passwords_are_found_and_redacted_in_every_spelling() -> None:
    for given in (
        f"postgresql://lin:{SECRET}@db.lab/papers",
        f"postgres://lin:{SECRET}@db/p?sslmode=require",
        f"postgresql://db/papers?user=lin&password={SECRET}",
        f"host=db dbname=p password={SECRET}",
        f"host=db password='{SECRET}' dbname=p",
    ):
        assert has_password(given), given
        assert SECRET not in redact(given) and SECRET not in scrub(f"cannot connect to {given}: refused"), given
    assert redact(f"host=db password={SECRET} dbname=p") == "host=db dbname=p"
    assert scrub(f"no such file: postgresql://lin:{SECRET}@db/p") == "no such file: postgresql://lin:***@db/p"
    assert scrub(f"bad: 'host=db password={SECRET}'") == "bad: 'host=db password=***'"
    assert not has_password("postgresql://lin@db.lab/papers") and not has_password("host=db dbname=p")
    assert not has_password("postgresql:///?service=lab")


@pytest.mark.parametrize(
    "given",
    [
        f"postgresql://lin:{SECRET}@db.lab/papers",
        f"postgresql://db.lab/papers?password={SECRET}",
        f"host=db.lab dbname=papers password={SECRET}",
    ],
)
def test_a_password_on_the_command_line_is_refused_with_the_ways_to_give_one(
    given: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for argv in (["--library", given, "list"], ["--library", str(tmp_path / "lib"), "share", "--to", given]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert SECRET not in err and err.count("\n") == 1
        assert "~/.pgpass" in err and "PGPASSWORD" in err and "service=" in err
    assert os.listdir(tmp_path) == []  # nothing was opened or made


def test_a_keyword_string_is_never_made_a_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: ``--library 'host=… password=…'`` silently made a folder of that name."""
    monkeypatch.chdir(tmp_path)
    # a server that is not there: libpq's reason, as one line; no folder in the working directory
    assert main(["--library", f"host={tmp_path}/nowhere dbname=papers", "list"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("marginalia: ") and err.count("\n") == 1 and "Traceback" not in err
    assert os.listdir(tmp_path) == []
    with pytest.raises(LibraryError) as caught:  # libpq's reason, never a folder
        Library.open(f"host={tmp_path}/nowhere dbname=papers")
    assert "password" not in str(caught.value)
    assert os.listdir(tmp_path) == []


def test_share_to_a_bad_target_never_echoes_a_password(tmp_path: Path) -> None:
    from desktop_app.sharing import share

    with Library.open(tmp_path / "lib") as lib, pytest.raises(LibraryError) as caught:
        share(lib, f"mysql://lin:{SECRET}@db/papers")
    assert SECRET not in str(caught.value) and "postgresql://" in str(caught.value)


@pytest.mark.postgresql
def test_a_keyword_string_opens_the_server_library(
    pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from urllib.parse import parse_qsl, urlsplit

    parts = urlsplit(pg_url)
    query = dict(parse_qsl(parts.query))
    words = (
        f"host={query['host']} port={query.get('port', '5432')} dbname={parts.path.lstrip('/')} user={parts.username}"
    )
    monkeypatch.chdir(tmp_path)
    with Library.open(words) as lib:
        assert lib.server is not None and lib.store.dialect.name == "postgresql"
    assert os.listdir(tmp_path) == []
