"""The command line parsed with only the named command's parser built gives what the whole parser
gives: the same namespace, the same help, the same errors and exit codes."""

from __future__ import annotations

import contextlib
import io

import pytest

from desktop_app.cli_parser import _command_word, build_parser, parse_command_line

LINES = [
    ["list", "--query", "tag:rl/* and not read", "--limit", "7", "--json"],
    ["--library", "/tmp/x", "search", "reinforcement learning", "--limit", "5"],
    ["--library=/tmp/x", "--read-only", "show", "4", "--json"],
    ["--library", "list", "list", "--sort", "year", "--descending"],  # a library named like a command
    ["triage", "queue", "protein", "--json"],
    ["triage", "decide", "keep", "1", "5"],
    ["reading-list", "show", "meeting", "--json"],
    ["reading-list", "add", "meeting", "5", "6"],
    ["trash", "list"],
    ["tag", "1", "2", "--add", "rl/agents"],
    ["note", "4", "--set", "a note"],
    ["gui", "a.ris", "--theme", "dark"],
    ["serve", "--idle", "0"],
    ["index-worker"],
    ["import", "a.bib", "b.ris", "--keywords-as-tags"],
    ["export", "--format", "bib", "--output", "x.bib"],
    [],
    ["--smoke-test"],
]
BAD = [
    ["nosuch"],
    ["list", "--sort", "bogus"],
    ["show"],
    ["reading-list"],
    ["triage"],
    ["--lib", "/tmp/x", "list"],  # an abbreviated option: the word after it is no command
    ["--version"],
    ["--help"],
    ["list", "--help"],
    ["--library", "/tmp/x", "--help", "list"],
    ["reading-list", "show", "--help"],
]


def _outcome(parse: object, argv: list[str]) -> tuple[object, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            result: object = vars(parse(argv))  # type: ignore[operator]
        except SystemExit as exc:
            result = ("exit", exc.code)
    return result, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("argv", LINES + BAD, ids=lambda a: " ".join(a) or "(nothing)")
def test_one_commands_parser_parses_as_the_whole(argv: list[str]) -> None:
    whole = _outcome(build_parser().parse_args, argv)
    assert _outcome(parse_command_line, argv) == whole


def test_the_command_word_skips_options_and_the_librarys_value() -> None:
    assert _command_word(["--library", "stats", "--read-only", "show", "3"]) == "show"
    assert _command_word(["--library=/x", "list"]) == "list"
    assert _command_word(["--help", "list"]) is None
    assert _command_word(["--read-only"]) is None
