"""The key sequences of test_keys_where_the_user_is.py once more on a real X server (Xvfb): the
xcb platform, its popup windows and focus handling, keys sent through the server (XTEST)."""

from __future__ import annotations

import ctypes.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.shared import ROOT
from tests.helpers.system_tools import APT_HINT, require


def _need_xtest() -> None:
    if ctypes.util.find_library("Xtst") is None:
        message = f"libXtst (the XTEST client library) is missing: {APT_HINT.format('libxtst6')}"
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)


def test_keys_under_xvfb(seeded_dir: Path, tmp_path: Path) -> None:
    xvfb = require("Xvfb", "xvfb")
    _need_xtest()
    rfd, wfd = os.pipe()
    server = subprocess.Popen(
        [xvfb, "-displayfd", str(wfd), "-screen", "0", "1600x1000x24", "-nolisten", "tcp"],
        pass_fds=(wfd,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(wfd)
    try:
        with os.fdopen(rfd) as pipe:
            display = pipe.readline().strip()
        assert display, "Xvfb did not report a display"
        env = dict(os.environ, DISPLAY=f":{display}", QT_QPA_PLATFORM="xcb", LC_ALL="C.UTF-8")  # English
        run = subprocess.run(
            [sys.executable, "-m", "tests.gui.x11_keys", str(seeded_dir), str(tmp_path / "s.ini")],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=240,
            check=False,
        )
    finally:
        server.terminate()
        server.wait(10)
    assert run.returncode == 0, run.stderr[-3000:]
    got = json.loads(run.stdout.strip().splitlines()[-1])
    print(f"under Xvfb :{display}: {got}")
    assert got["platform"] == "xcb" and got["active"]
    assert got["focus_at_open"] == "paperTable"
    assert got["row_after_j"] == 1 and got["tag_filter_after_j"] == ""
    assert got["tag_field_after_esc"] == ["", "tagEditor"]
    assert got["after_second_esc"] == "paperTable"
    assert got["tags_and_rating"] == [[], 2]
    assert got["triage_tags"] == ["icl", "theory"]
    assert got["triage_moved"] == 1
    assert got["triage_status"] == "read" and got["triage_flash"] == "Marked read"
