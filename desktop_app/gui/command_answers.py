"""While a window is open on a library, the command line's read commands on it are answered by
the window instead of paying a process's start (SQLAlchemy, numpy, Whoosh and a cold index).

A thread of the window listens on the socket ``marginalia serve`` would use
(:func:`desktop_app.cli_remote.socket_path`), so the client needs nothing new: it asks, prints
the answer, and runs the command itself when nothing answers or the answer is refused. The
thread runs the very code ``marginalia serve`` runs (:class:`desktop_app.serving.BackgroundServer`),
on a Library of its own that it opens at the first request and closes when unused; the GUI
thread is never asked to do anything. Requests are refused while the window's index is not
ready (its first build, a rebuild), so the thread never builds an index beside the window's.

``MARGINALIA_WINDOW_ANSWERS=0`` turns it off; ``MARGINALIA_NO_SERVER`` turns it off too (no
server of any kind).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Protocol

from desktop_app import cli_remote
from desktop_app.core.library import Library
from desktop_app.serving import BackgroundServer

OFF_ENV = "MARGINALIA_WINDOW_ANSWERS"


class _Files(Protocol):
    @property
    def index_ready(self) -> bool: ...


class AnsweringWindow(Protocol):
    @property
    def library(self) -> Library: ...
    @property
    def files(self) -> _Files: ...

    def set_command_answers(self, answers: BackgroundServer) -> None: ...


def wanted() -> bool:
    if os.environ.get(cli_remote.NO_SERVER_ENV):
        return False
    return os.environ.get(OFF_ENV, "1").strip().lower() not in ("0", "no", "false", "off")


def location_of(library: Library) -> Path | str:
    """What the command line names this library by: its server's URL, else its folder."""
    return library.server.url if library.server is not None else Path(library.folder)


def attach(window: AnsweringWindow) -> BackgroundServer | None:
    """Answer read commands on the window's library from a thread until the window closes
    (``MainWindow.closeEvent`` stops it). None when turned off, or when something else
    (a ``marginalia serve``) already answers for the library."""
    if not wanted():
        return None
    from desktop_app.cli_parser import parse_command_line

    library = window.library

    def ready() -> bool:  # read from the answering thread: two flags
        # the window's index opened (its check after the first paint has run) and not being rebuilt
        return library.index.is_open and window.files.index_ready

    answers = BackgroundServer(location_of(library), parse_command_line, ready)
    if not answers.start():
        return None
    window.set_command_answers(answers)
    return answers
