"""``marginalia share --to postgresql://…``: copy a library to a server.

A server that holds nothing yet gets every table as it is, in one transaction
(:meth:`Imports.copy_library <desktop_app.core.importing.imports.Imports.copy_library>`: PostgreSQL's
COPY), and the sharing desk gets a copy of the folder's search index when it is current (the
same papers under the same ids), else builds one. Otherwise (``--merge`` into a library with
rows) the source library is written as a Marginalia JSON document (the export every backup format
round-trips: papers, identities, tags and their colours, statuses, ratings, notes with their
text, highlights, reading lists in order, attachments) and restored into the server library
with :meth:`Imports.restore_json <desktop_app.core.importing.imports.Imports.restore_json>`, in one
transaction: the copy is whole or not at all. ``marginalia --library postgresql://… export
--format json`` brings it back.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from desktop_app.core.errors import LibraryError
from desktop_app.core.library import Library
from desktop_app.core.values import ImportReport


def share(source: Library, url: str, *, merge: bool = False) -> tuple[ImportReport, str]:
    """Copy ``source`` into the library at ``url``; (the restore's report, the URL without password).

    A server library that has papers already is refused unless ``merge`` (then papers that are
    the same are merged, as an import of a backup would)."""
    from desktop_app.core.conninfo import is_keyword_string, keyword_url, scrub
    from desktop_app.core.shared_library import is_server_url, redact
    from desktop_app.exporting import export_to_file

    if is_keyword_string(url):  # "host=db dbname=papers": libpq's other spelling of the same
        url = keyword_url(url)
    if not is_server_url(url):
        raise LibraryError(f"--to must be a postgresql:// URL or service, not {scrub(repr(url))}")
    target = Library.open(url, ensure_index=False)
    try:
        if target.read_only:
            raise LibraryError(f"your role may not write {redact(url)}")
        if not merge and target.papers.count():
            raise LibraryError(
                f"{redact(url)} holds {target.papers.count()} papers already; add --merge to copy into it anyway"
            )
        if target.imports.holds_nothing():
            stamp = source.store.data_stamp()  # no write to the source from here to the copy's end:
            copied = _copy_index(source, target)  # then its index holds exactly the rows copied
            try:
                report = target.imports.copy_library(source.store, source.folder)
                if copied is not None and stamp is not None and source.store.data_stamp() == stamp:
                    _adopt_index(target, copied)
            finally:
                if copied is not None:  # (gone once adopted)
                    shutil.rmtree(copied, ignore_errors=True)
        else:
            with tempfile.TemporaryDirectory(prefix="marginalia-share-") as tmp:
                doc = Path(tmp) / "library.json"
                export_to_file(source, "json", doc)
                report = target.imports.restore_json(doc, accept_links=True)  # the user's own library
        target.ensure_index()
    finally:
        target.close()
    return report, redact(url)


def _copy_index(source: Library, target: Library) -> Path | None:
    """A copy of the folder's index beside the sharing desk's (same file system), when it is
    usable and nothing waits in its queue: the index of exactly the database's papers, under
    the ids the table copy keeps. None otherwise (``ensure_index`` then builds one)."""
    if not source.index.index.is_usable()[0] or source.index.pending():
        return None
    index = target.index.index
    copy = index.folder.with_name(index.folder.name + ".copy")
    shutil.rmtree(copy, ignore_errors=True)
    copy.parent.mkdir(parents=True, exist_ok=True)
    shutil.copytree(source.index.index.folder, copy)
    return copy


def _adopt_index(target: Library, copy: Path) -> None:
    """The copied index as the desk's; its change cursor at the copied log's end."""
    server = target.server
    if server is None:  # (the target is always the server library just made)
        raise ValueError("only a server library's desk adopts a copied index")
    index = target.index.index
    index.close()
    shutil.rmtree(index.folder, ignore_errors=True)
    copy.rename(index.folder)
    server.index.adopt()
