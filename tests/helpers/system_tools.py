"""Tests that need a system tool (a Debian package) call :func:`require`.

On a fresh machine without the tool the test is skipped with the reason and the install
command, so `make test` passes; with CI set it fails, so CI (whose .ci/run installs the
packages) still runs everything.
"""

from __future__ import annotations

import os
import shutil

import pytest

APT_HINT = "apt-get install -y --no-install-recommends {} (.ci/run installs it)"


def require(tool: str, package: str) -> str:
    """Path of `tool`; skips (CI unset) or fails (CI set) naming the Debian `package`."""
    path = shutil.which(tool)
    if path is None:
        message = f"{tool} is not installed: {APT_HINT.format(package)}"
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)  # a fresh machine: `make test` passes, CI still runs everything
    return path
