"""The ``marginalia`` command line as a subprocess, the way a user runs it, and checks on what it
answered."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.helpers.shared import ROOT


def cli_env(library_env: str | None = None) -> dict[str, str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}
    if library_env is not None:
        env["MARGINALIA_LIBRARY"] = library_env
    return env


def _cmd(library: Path | None, args: list[str]) -> list[str]:
    lib_args = ["--library", str(library)] if library is not None else []
    return [sys.executable, "-m", "desktop_app", *lib_args, *map(str, args)]


def run(library: Path | None, *args: object, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        _cmd(library, list(args)),
        cwd=ROOT,
        env=env or cli_env(),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )


def run_parallel(
    library: Path, *commands: list[object] | tuple[Path, list[object]]
) -> list[subprocess.CompletedProcess]:
    """Run commands that do not write to the same library at once; results in order.
    A command is an argument list, or (library, argument list) for another library."""
    procs = []
    for c in commands:
        folder, args = c if isinstance(c, tuple) else (library, c)
        procs.append(
            (
                args,
                subprocess.Popen(
                    _cmd(folder, list(map(str, args))),
                    cwd=ROOT,
                    env=cli_env(),
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                    encoding="utf-8",
                ),
            )
        )
    out = []
    for c, p in procs:
        stdout, stderr = p.communicate(timeout=120)
        out.append(subprocess.CompletedProcess(c, p.returncode, stdout, stderr))
    return out


def ok(proc: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert proc.returncode == 0, (proc.args, proc.stdout[-2000:], proc.stderr[-2000:])
    assert "Traceback" not in proc.stderr
    return proc


def user_error(proc: subprocess.CompletedProcess, fragment: str) -> None:
    """Exit 1 with one line on stderr, no traceback."""
    assert proc.returncode == 1, (proc.args, proc.stdout[-1000:], proc.stderr[-1000:])
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("marginalia: "), (proc.args, proc.stderr)
    assert fragment in lines[0], (proc.args, lines[0])


def cli(folder: Path, *args: str) -> None:
    """Run one command on ``folder`` from another process (as another program would) and
    require it to succeed."""
    done = subprocess.run(
        [sys.executable, "-m", "desktop_app", "--library", str(folder), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr


def run_app(*args: str, env_extra: dict | None = None) -> subprocess.CompletedProcess:
    """``python -m desktop_app ARGS`` offscreen, from the current folder, its output captured."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", **(env_extra or {}))
    return subprocess.run(
        [sys.executable, "-m", "desktop_app", *args], capture_output=True, text=True, timeout=120, env=env
    )


# runs the console script's function, then writes the names of the modules it loaded (did the
# command run in this process, or did a server answer it?)
RUN_AND_LIST_MODULES = """
import json, sys
from desktop_app.cli import main
try:
    code = main(sys.argv[2:])
except SystemExit as exc:
    code = exc.code
with open(sys.argv[1], "w") as f:
    json.dump(sorted(sys.modules), f)
sys.exit(code)
"""


def run_listing_modules(
    env: dict[str, str], folder: Path, *args: str, cwd: Path | None = None
) -> tuple[subprocess.CompletedProcess, set[str]]:
    """``marginalia ARGS`` as a subprocess, and the names of the modules it had loaded at the end
    (written to a file in *folder*)."""
    import json

    out = folder / "modules.json"
    res = subprocess.run(
        [sys.executable, "-c", RUN_AND_LIST_MODULES, str(out), *args],
        cwd=cwd or folder,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )
    return res, set(json.loads(out.read_text()))
