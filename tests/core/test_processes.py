"""process_running tells a running process from a gone one without touching either."""

from __future__ import annotations

import os
import subprocess
import sys

from desktop_app.core.processes import process_running


def test_this_process_and_a_running_child_are_running_a_reaped_one_is_not() -> None:
    assert process_running(os.getpid())
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert process_running(child.pid)
    finally:
        child.kill()
        child.wait()
    assert not process_running(child.pid)  # gone (and reaped): no such process
    assert not process_running(0) and not process_running(-1)


def test_asking_leaves_the_process_running() -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        for _ in range(3):
            assert process_running(child.pid)
        assert child.poll() is None  # asked three times, still running
    finally:
        child.kill()
        child.wait()
