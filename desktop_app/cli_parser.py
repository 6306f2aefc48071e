"""The command line's parser: every command's arguments (``build_parser``), and the parse of one
command line with only the named command's parser built (``parse_command_line``). It imports
nothing but argparse and the version, so the window's answering thread
(``gui/command_answers.py``) and ``marginalia serve`` parse as the command line does."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any

from desktop_app import __version__

EXPORT_CHOICES = ("md", "html", "pdf", "bib", "ris", "csljson", "csv", "json", "bibliography-html", "bibliography-txt")


class _Skipped:
    """A subcommand's parser while another command is being parsed: takes every call, builds nothing."""

    def __getattr__(self, name: str) -> Callable[..., _Skipped]:
        return self._take

    def _take(self, *args: object, **kwargs: object) -> _Skipped:
        return self


class _OneCommand:
    """The subcommands as :func:`build_parser` adds them when only ``wanted`` is parsed."""

    def __init__(self, sub: argparse._SubParsersAction[argparse.ArgumentParser], wanted: str) -> None:
        self.sub, self.wanted, self.found = sub, wanted, False

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser | _Skipped:  # noqa: ANN401 - add_parser's own
        if name != self.wanted:
            return _Skipped()
        self.found = True
        return self.sub.add_parser(name, **kwargs)


def _command_word(argv: Sequence[str]) -> str | None:
    """The command a command line names (the first word that is no option nor ``--library``'s
    value); None when there is none or the main parser's help is asked before it."""
    value_next = False
    for token in argv:
        if value_next:
            value_next = False
        elif token in ("-h", "--help"):
            return None
        elif token == "--library":
            value_next = True
        elif not token.startswith("-"):
            return token
    return None


def parse_command_line(argv: Sequence[str]) -> argparse.Namespace:
    """``build_parser().parse_args(argv)``, with only the named command's parser built (all 49
    cost about 25 ms of CPU, a third of an answered command's); the whole parser when no
    command is named or the word is none (its usage and errors list every command)."""
    wanted = _command_word(argv)
    if wanted is not None:
        parser, found = _parser(wanted)
        if found:
            return parser.parse_args(argv)
    return build_parser().parse_args(argv)


def build_parser() -> argparse.ArgumentParser:
    """The whole command line's parser."""
    return _parser(None)[0]


def _parser(only: str | None) -> tuple[argparse.ArgumentParser, bool]:
    """The parser, every command's or only that of ``only``; whether ``only`` is a command."""
    p = argparse.ArgumentParser(prog="marginalia", description="Read, tag, note and export paper abstracts.")
    p.add_argument("--version", action="version", version=f"marginalia {__version__}")
    p.add_argument(
        "--library",
        metavar="DIR",
        default=None,
        help="library folder, or a shared library's postgresql://user@host/db URL or libpq "
        "'host=… dbname=…' string, never with a password (~/.pgpass, PGPASSWORD or a "
        "service file; see docs/shared-library.md) (default: $MARGINALIA_LIBRARY, else "
        "'library' in the user data folder)",
    )
    p.add_argument(
        "--read-only",
        action="store_true",
        help="open the library read-only (also automatic when it may not be written)",
    )
    p.add_argument(
        "--smoke-test",
        action="store_true",
        help="build the window on a temporary library, check it, print OK (for installers)",
    )
    every = p.add_subparsers(dest="command", metavar="COMMAND")
    sub = every if only is None else _OneCommand(every, only)

    s = sub.add_parser("gui", help="open the window (the default)")
    s.add_argument("files", nargs="*", metavar="FILE", help="import these files, then show the window")
    s.add_argument("--screenshot", metavar="PNG", help="render the window to PNG and exit")
    s.add_argument("--query", default="", help="start with this search")
    s.add_argument("--select", type=int, help="start with this paper selected")
    s.add_argument("--size", default="1400x900", help="window size for --screenshot (WxH)")
    s.add_argument(
        "--theme",
        choices=("system", "light", "dark"),
        help="this colour scheme for this run (not saved; View → Theme saves one)",
    )
    s.add_argument(
        "--lang",
        metavar="LANG",
        help="the window's language for this run: en or zh_CN (default: Settings, else the system's)",
    )
    s.add_argument(
        "--view",
        default="main",
        metavar="NAME",
        help="with --screenshot: which view to render (see desktop_app/gui/screenshot_views.py)",
    )
    s.add_argument("--smoke-test", action="store_true", dest="gui_smoke")

    s = sub.add_parser(
        "import",
        help="import files (seed lists, BibTeX, RIS, Web of Science, PubMed/MEDLINE .nbib, CSL-JSON, arXiv Atom, CSV)",
    )
    s.add_argument("files", nargs="+")
    s.add_argument("--skip-duplicates", action="store_true", help="do not merge fields into papers already there")
    s.add_argument("--arxiv-categories-as-tags", action="store_true")
    s.add_argument(
        "--keywords-as-tags",
        action="store_true",
        help="also add the files' keywords as tags under keywords/ (they are kept as each paper's keywords either way)",
    )
    s.add_argument(
        "--show-matches",
        action="store_true",
        help="list each record found to be a paper already there, with the reason",
    )
    s.add_argument(
        "--accept-links",
        action="store_true",
        help="a Marginalia JSON backup's file links outside the library folder are linked too "
        "(without it they are listed, not linked: a backup from elsewhere can name any file)",
    )
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("list", help="list papers")
    s.add_argument("--query", default="")
    s.add_argument("--tag", action="append", default=[])
    s.add_argument("--not-tag", action="append", default=[])
    s.add_argument("--status", choices=("unread", "skimmed", "read"))
    s.add_argument("--list", dest="list_name")
    s.add_argument(
        "--sort",
        default="added",
        choices=(
            "added",
            "title",
            "year",
            "venue",
            "rating",
            "status",
            "decision",
            "updated",
            "id",
            "relevance",
            "position",
        ),
    )
    s.add_argument("--descending", action="store_true")
    s.add_argument("--limit", type=int)
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("search", help="full-text search")
    s.add_argument("query")
    s.add_argument("--limit", type=int, default=20)
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("retitle", help="re-derive the titles derived from abstracts (never edited ones)")
    s.add_argument("--apply", action="store_true", help="write the new titles (default: only list them)")

    s = sub.add_parser("show", help="show one paper")
    s.add_argument("id", type=int)
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("tag", help="add or remove tags")
    s.add_argument("ids", nargs="+", type=int)
    s.add_argument("--add", action="append", default=[])
    s.add_argument("--remove", action="append", default=[])

    s = sub.add_parser("status", help="set status: status ID... unread|skimmed|read")
    s.add_argument("args", nargs="+")

    s = sub.add_parser("rate", help="set rating: rate ID... N (0-5)")
    s.add_argument("args", nargs="+")

    s = sub.add_parser("title", help="edit a title")
    s.add_argument("id", type=int)
    s.add_argument("text")

    s = sub.add_parser("note", help="print or write a paper's note")
    s.add_argument("id", type=int)
    g = s.add_mutually_exclusive_group()
    g.add_argument("--set")
    g.add_argument("--append")
    g.add_argument("--file")

    s = sub.add_parser("highlight", help="highlight the first occurrence of a quote in an abstract")
    s.add_argument("id", type=int)
    s.add_argument("--quote", required=True)
    s.add_argument("--comment", default="")
    s.add_argument("--color", default="yellow")

    s = sub.add_parser("abstract", help="replace an abstract from a file (highlights re-anchor)")
    s.add_argument("id", type=int)
    s.add_argument("--file", required=True)

    s = sub.add_parser("export", help="export papers")
    s.add_argument("--format", required=True, choices=EXPORT_CHOICES)
    s.add_argument("-o", "--output", required=True, metavar="FILE", help="the file to write; - for standard output")
    g = s.add_mutually_exclusive_group()
    g.add_argument("--query")
    g.add_argument("--list", dest="list_name")
    s.add_argument("--title")
    s.add_argument("--notes-in-bibtex", action="store_true")
    s.add_argument(
        "--style",
        default="apa",
        metavar="STYLE",
        help="citation style of the bibliography formats: apa, chicago-author-date, ieee, "
        "nature, association-for-computing-machinery, one of yours, or a .csl file",
    )

    s = sub.add_parser("related", help="papers related to one (shared key terms)")
    s.add_argument("id", type=int)
    s.add_argument("--limit", type=int, default=10)
    s.add_argument("--json", action="store_true")

    s = sub.add_parser(
        "topics",
        help="group papers into topics (all, or a search's); "
        "`topics decide TOPIC keep|maybe|skip`; `topics tag TOPIC [NAME]`",
    )
    s.add_argument(
        "words",
        nargs="*",
        metavar="QUERY",
        help="a search whose papers are grouped (default: all papers); or decide TOPIC "
        "keep|maybe|skip (every undecided paper of the topic), or tag TOPIC [NAME] "
        "(tag its papers topics/NAME); TOPIC is a number or a name",
    )
    s.add_argument("--query", default=None, help="the search whose topics are meant (with decide and tag)")
    s.add_argument("--k", type=int, default=None, metavar="N", help="this many topics (default: the app chooses)")
    s.add_argument("--json", action="store_true")

    triage = sub.add_parser("triage", help="the learned triage queue and decisions (keep, maybe, skip)")
    ts = triage.add_subparsers(dest="triage_command", metavar="ACTION", required=True)
    x = ts.add_parser("queue", help="the undecided papers matching QUERY, most likely keeps first")
    x.add_argument("query", nargs="?", default="")
    x.add_argument("--limit", type=int, default=20)
    x.add_argument("--list-order", action="store_true", help="the list's order, not the learned one")
    x.add_argument("--json", action="store_true")
    ts.add_parser("features")  # hidden: build and cache the tf-idf features (the window's child)
    ts.add_parser("space")  # hidden: fit and cache the semantic space (the window's child)
    x = ts.add_parser("decide", help="record decisions: triage decide keep|maybe|skip|none ID...")
    x.add_argument("decision", choices=("keep", "maybe", "skip", "none"))
    x.add_argument("ids", nargs="+", type=int, metavar="ID")

    s = sub.add_parser("stats", help="statistics: reading progress, papers by tag, venue, year and rating")
    s.add_argument("--json", action="store_true")

    rl = sub.add_parser("reading-list", help="reading lists").add_subparsers(
        dest="rl_command", metavar="ACTION", required=True
    )
    x = rl.add_parser("create")
    x.add_argument("name")
    x.add_argument("--description", default="")
    x = rl.add_parser("add")
    x.add_argument("name")
    x.add_argument("ids", nargs="+", type=int)
    x = rl.add_parser("move")
    x.add_argument("name")
    x.add_argument("id", type=int)
    x.add_argument("position", type=int, help="1-based position")
    x = rl.add_parser("remove")
    x.add_argument("name")
    x.add_argument("ids", nargs="+", type=int)
    x = rl.add_parser("note")
    x.add_argument("name")
    x.add_argument("id", type=int)
    x.add_argument("text")
    x = rl.add_parser("show")
    x.add_argument("name")
    x.add_argument("--json", action="store_true")
    x = rl.add_parser("describe")
    x.add_argument("name")
    x.add_argument("description")
    x = rl.add_parser("rename")
    x.add_argument("name")
    x.add_argument("new_name")
    x = rl.add_parser("delete")
    x.add_argument("name")
    rl.add_parser("ls")

    s = sub.add_parser("attach", help="attach a file to a paper (copied into the library's files/ folder)")
    s.add_argument("id", type=int)
    s.add_argument("file")
    s.add_argument("--link", action="store_true", help="record where the file is instead of copying it")
    s = sub.add_parser("attachments", help="list the files attached to a paper")
    s.add_argument("id", type=int)
    s.add_argument("--json", action="store_true")

    sub.add_parser("reindex", help="rebuild the full-text index from the database")
    s = sub.add_parser("check", help="check database integrity and index consistency")
    s.add_argument("--repair", action="store_true", help="rebuild the search index when it disagrees")
    sub.add_parser("backup", help="copy the database into backups/ (verified; old backups rotate)")
    s = sub.add_parser("restore", help="list the backups; with one named, put it in place of the database")
    s.add_argument(
        "backup",
        nargs="?",
        metavar="BACKUP",
        help="a number from the list (1 = newest), a file name in backups/, or a path",
    )
    s = sub.add_parser("share", help="copy this library to a PostgreSQL server (postgresql://user@host/db)")
    s.add_argument(
        "--to",
        required=True,
        metavar="URL",
        help="libpq URL or service (postgresql:///?service=lab); passwords from ~/.pgpass",
    )
    s.add_argument("--merge", action="store_true", help="copy into a server library that has papers already")
    s = sub.add_parser("delete", help="move papers to the trash (`marginalia trash restore ID...` brings them back)")
    s.add_argument("ids", nargs="+", type=int, metavar="ID")
    s = sub.add_parser(
        "trash",
        help="the deleted papers: list them, restore them, or delete them for good",
        description="Deleted papers (`marginalia delete`, the window's Delete key, a merged duplicate) wait in the "
        "trash, kept across restarts, until they are restored or deleted for good. "
        "Deleting for good cannot be undone; the files attached to those papers "
        "are removed from the library's files/ folder.",
    )
    tr = s.add_subparsers(dest="trash_command", metavar="ACTION", required=True)
    x = tr.add_parser("list", help="the papers in the trash, the most recently deleted first")
    x.add_argument("--json", action="store_true")
    x = tr.add_parser("restore", help="take papers out of the trash")
    x.add_argument("ids", nargs="+", type=int, metavar="ID")
    x = tr.add_parser("empty", help="delete every paper in the trash for good (asks first)")
    x.add_argument("--yes", action="store_true", help="do not ask (needed when not run from a terminal)")
    sub.add_parser("imports", help="list past imports")
    s = sub.add_parser("undo-import", help="move the papers one import added to the trash")
    s.add_argument("batch", type=int)
    s = sub.add_parser(
        "serve",
        help="keep the library open and answer the read commands (search, list, show, "
        "related, triage queue, ...) of other marginalia processes at once",
        description="While it runs, read commands run from any terminal or script on this "
        "library are answered by this process instead of each opening the "
        "library anew (about a second of CPU each). Their output is the same: "
        "the library is brought up to date before every answer. Writes still run "
        "in their own process.",
    )
    s.add_argument(
        "--idle",
        type=float,
        default=30.0,
        metavar="MINUTES",
        help="stop after this many minutes without a request (0: never; default 30)",
    )
    sub.add_parser("index-worker")  # hidden: the window's search-index writer (core/search/worker_child.py)
    return p, only is None or (isinstance(sub, _OneCommand) and sub.found)
