"""``marginalia``: the command line. With no subcommand it opens the GUI.

Every command takes ``--library DIR`` (default: the platform's user data folder, or
``MARGINALIA_LIBRARY``). Exit 0 on success; 1 with a one-line message on stderr for a user error;
2 for a command that must ask and cannot (``trash empty`` without ``--yes`` and no terminal),
and for a command line that cannot be run (argparse's, and a password in ``--library``).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from desktop_app.cli_parser import parse_command_line
from desktop_app.cli_support import guarded
from desktop_app.paths import default_library_dir

# what a C program killed by SIGPIPE reports (128 + 13): ``marginalia list | head`` ends quietly
EXIT_BROKEN_PIPE = 141


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; its exit status. A reader that closes stdout early (``| head``) ends it
    quietly with :data:`EXIT_BROKEN_PIPE`: no message, no traceback."""
    try:
        try:
            return _main(argv)
        finally:  # flushed here (also after --help's SystemExit) so a closed pipe is seen in the try
            if sys.stdout is not None and not sys.stdout.closed:
                sys.stdout.flush()
    except BrokenPipeError:
        _discard_stdout()
        return EXIT_BROKEN_PIPE


def _discard_stdout() -> None:
    """Point stdout at the null device: what is still buffered, and the interpreter's last flush
    at exit, then go nowhere instead of raising BrokenPipeError again."""
    with contextlib.suppress(OSError, ValueError, AttributeError):  # no real stdout: nothing to flush
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, sys.stdout.fileno())
        finally:
            os.close(null)


def library_location(given: str | None) -> Path | str:
    """The folder, or a ``postgresql://`` URL kept as it is (a Path would fold its "//"); a libpq
    keyword string (``host=db dbname=papers``) is a server too, never a folder's name."""
    from desktop_app.core.conninfo import is_keyword_string, is_server_url, keyword_url

    given = given or os.environ.get("MARGINALIA_LIBRARY") or None
    if is_keyword_string(given):
        return keyword_url(str(given))
    if is_server_url(given):
        return str(given)
    return Path(given).expanduser() if given else default_library_dir()


def _nobody_watches(args: argparse.Namespace) -> bool:
    """The smoke tests and screenshots: they draw offscreen when there is no screen."""
    return bool(args.smoke_test or getattr(args, "gui_smoke", False) or getattr(args, "screenshot", None))


def _password_on_command_line(args: argparse.Namespace) -> bool:
    """Whether ``--library`` or ``share --to`` carries a password (any user sees it in ``ps``)."""
    from desktop_app.core.conninfo import has_password, is_keyword_string, is_server_url

    given = [args.library, getattr(args, "to", None) if args.command == "share" else None]
    return any(g and (is_server_url(g) or is_keyword_string(g)) and has_password(g) for g in given)


def _main(argv: Sequence[str] | None) -> int:
    args = parse_command_line(sys.argv[1:] if argv is None else argv)
    if _password_on_command_line(args):
        from desktop_app.core.conninfo import PASSWORD_REFUSED

        print(f"marginalia: {PASSWORD_REFUSED}", file=sys.stderr)
        return 2
    library = library_location(args.library)
    if args.smoke_test or args.command in (None, "gui"):
        from desktop_app.platform_check import NO_SESSION, no_graphical_session

        if no_graphical_session():
            if not _nobody_watches(args):
                print(NO_SESSION, file=sys.stderr)  # before Qt, which would abort
                return 1
            os.environ["QT_QPA_PLATFORM"] = "offscreen"  # a smoke test or screenshot needs no screen
    if args.smoke_test:
        from desktop_app.gui.launch import smoke_test

        return smoke_test(None)
    if args.command in (None, "gui"):
        from desktop_app.platform_check import platform_problem

        problem = platform_problem()
        if problem:  # before Qt loads the plugin and aborts with a misleading message
            print(problem, file=sys.stderr)
            return 1
        from desktop_app.gui.launch import run_gui

        return run_gui(library, args)
    if args.command == "index-worker":
        from desktop_app.core.search.worker_child import serve

        return serve(library)
    from desktop_app import cli_remote

    if cli_remote.servable(args):  # a running `marginalia serve` answers without the imports below
        code = cli_remote.run_remotely(library, sys.argv[1:] if argv is None else list(argv))
        if code is not None:
            return code
        cli_remote.start_server_if_repeated(library)  # a loop of calls: the next ones are answered by it
    if args.command == "serve":
        return guarded(lambda: _serve(library, args.idle))

    def in_this_process() -> int:
        from desktop_app import commands

        return commands.run(library, args)

    return guarded(in_this_process)


def _serve(library: Path | str, idle: float) -> int:
    from desktop_app.serving import serve

    return serve(library, parse_command_line, idle_minutes=idle)


def gui_main() -> int:
    """Entry point of ``marginalia-gui`` (no console window on Windows)."""
    return main(sys.argv[1:])
