"""The search-index writer in a child process, so that the window's GUI thread never waits for
the GIL while Whoosh builds segments.

The child is the app's own executable with a hidden subcommand (``marginalia --library DIR
index-worker``; ``python -m desktop_app`` in a venv, the bundle's binary in a PyInstaller build),
so it works the same installed or bundled. ``index_queue`` in the database stays the channel of
*what* to index; the pipes only say *when*:

- parent → child, one command a line: ``<seq> ensure`` (check the index, rebuild it when it must,
  then drain), ``<seq> drain``, ``<seq> rebuild``, ``<seq> cancel`` (stops a running rebuild),
  ``<seq> quit`` (drain, then exit). End of input (the window closed or died) ends the child
  after the batch it is writing; what is still queued stays queued for the next start.
- child → parent, one JSON object a line: ``{"event": "progress", "phase", "done", "total"}``
  after each index commit of a drain (and every 500 papers of a rebuild), ``{"event": "done",
  "seq", "cmd", "result", "pending"}`` when a command finished, ``{"event": "error", "seq",
  "cmd", "message", "damaged"}`` when it failed.

Whoosh allows one writer: while the child runs the parent never writes the index; it reads it,
and its searcher follows the index generation (``SearchIndex._current``). The child's side is
``index_worker_child``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

SUBCOMMAND = "index-worker"
# MARGINALIA_INDEX_WORKER=thread keeps the writer in a thread of the window's process
ENV_MODE = "MARGINALIA_INDEX_WORKER"
START_TIMEOUT = 60.0  # seconds for the child to answer its first command


def worker_command(folder: Path) -> list[str]:
    """How to start the child: the bundle's own binary, else this interpreter on the package."""
    if getattr(sys, "frozen", False):
        exe = [sys.executable]
    else:
        exe = [sys.executable, "-m", "desktop_app"]
    return [*exe, "--library", str(folder), SUBCOMMAND]


def run_child(folder: Path, args: list[str], timeout: float, what: str) -> bool:
    """Run ``marginalia --library FOLDER ARGS...`` once, as the index writer's child is run
    (the bundle's binary, the same package); True when it succeeded. ``what`` names the work
    in the log when it did not."""
    import subprocess

    argv = worker_command(folder)[:-1] + list(args)
    try:
        done = subprocess.run(
            argv, env=_child_env(), capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL
        )
    except (OSError, subprocess.SubprocessError) as exc:
        log.info("%s not made in a child: %s", what, exc)
        return False
    if done.returncode != 0:
        log.info("%s not made in a child (%s): %s", what, done.returncode, done.stderr.strip()[-500:])
    return done.returncode == 0


def _child_env() -> dict[str, str]:
    env = dict(os.environ)
    if not getattr(sys, "frozen", False):
        # the child imports the same desktop_app as this process, wherever it came from
        root = str(Path(__file__).resolve().parents[2])
        parts = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
        if root not in parts:
            env["PYTHONPATH"] = os.pathsep.join([root, *parts])
    env.setdefault("PYTHONUNBUFFERED", "1")
    env.pop("QT_QPA_PLATFORM_PLUGIN_PATH", None)  # the child loads no Qt
    return env


MIN_PARALLEL_BUILD = 2000  # papers; below this two processes cost more than they save


def build_procs(total: int = MIN_PARALLEL_BUILD) -> int:
    """Processes for a full rebuild of ``total`` papers: 2 on a machine with two or more cores
    where multiprocessing forks (bulk_writer.build: one segment each), else 1. A spawned start
    (macOS, Windows) would re-run the app's entry in each helper, and a process running Qt is
    never forked. ``MARGINALIA_INDEX_PROCS`` overrides."""
    import multiprocessing

    wanted = os.environ.get("MARGINALIA_INDEX_PROCS", "").strip()
    if wanted.isdigit() and int(wanted) >= 1:
        return int(wanted)
    if total < MIN_PARALLEL_BUILD or (os.cpu_count() or 1) < 2:
        return 1
    if multiprocessing.get_start_method() != "fork" or "PySide6.QtCore" in sys.modules:
        return 1
    return 2


Event = dict[str, Any]  # one line of the child's output, as json.loads gives it (unchecked)


class WorkerFailed(RuntimeError):
    """The child died or answered a command with an error."""

    def __init__(self, message: str, damaged: bool = False) -> None:
        super().__init__(message)
        self.damaged = damaged


class WorkerClient:
    """The parent's end: starts the child, sends commands, follows its JSON lines in a thread.

    ``on_event(event)`` is called from that thread for every line (the GUI marshals it to its
    own thread). ``busy`` is True from a command's sending to its answer."""

    def __init__(self, folder: Path, on_event: Callable[[Event], None] | None = None) -> None:
        self.folder = folder
        self.on_event = on_event
        self.proc: subprocess.Popen[str] | None = None
        self._seq = 0
        self._answers: dict[int, Event] = {}
        self._open: set[int] = set()
        self._cond = threading.Condition()
        self._send_lock = threading.Lock()
        self._reader: threading.Thread | None = None
        self._stderr: threading.Thread | None = None
        self.progress: tuple[str, int, int] | None = None  # the last (phase, done, total) while busy
        self.exited = False

    # ---- lifecycle -------------------------------------------------------------------------
    def start(self) -> None:
        """Start the child; OSError when it cannot be started."""
        flags = getattr(subprocess, "CREATE_NO_WINDOW", 0)  # no console window on Windows
        self.proc = subprocess.Popen(
            worker_command(self.folder.parent),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=_child_env(),
            text=True,
            encoding="utf-8",
            bufsize=1,
            creationflags=flags,
        )
        self._reader = threading.Thread(target=self._read, name="index-worker-out", daemon=True)
        self._reader.start()
        self._stderr = threading.Thread(target=self._log_stderr, name="index-worker-err", daemon=True)
        self._stderr.start()

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None and not self.exited

    @property
    def busy(self) -> bool:
        with self._cond:
            return bool(self._open)

    def close(self, timeout: float = 30.0) -> None:
        """Ask the child to write what is queued and exit; wait ``timeout`` s, then end it."""
        proc = self.proc
        if proc is None:
            return
        if proc.poll() is None:
            with contextlib.suppress(OSError, ValueError):  # the child has gone already
                self._write("quit")
                assert proc.stdin is not None
                proc.stdin.close()
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                log.warning("the index writer did not finish within %s s; ending it", timeout)
                proc.kill()
                proc.wait(5)
        if self._reader is not None:
            self._reader.join(5)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)

    # ---- commands --------------------------------------------------------------------------
    def send(self, cmd: str) -> int:
        """Send one command; its sequence number (WorkerFailed when the child is gone)."""
        with self._cond:
            self._seq += 1
            seq = self._seq
            if cmd != "cancel":
                self._open.add(seq)
        try:
            self._write(f"{seq} {cmd}")
        except (OSError, ValueError) as exc:
            with self._cond:
                self._open.discard(seq)
            raise WorkerFailed(f"the index writer is gone ({exc})") from exc
        return seq

    def _write(self, line: str) -> None:
        proc = self.proc
        if proc is None or proc.stdin is None:
            raise OSError("not started")
        with self._send_lock:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()

    def wait(
        self,
        seq: int,
        timeout: float | None = None,
        progress: Callable[[int, int], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> Event:
        """Wait for the answer to ``seq``; relays progress, sends ``cancel`` when asked to.
        WorkerFailed on an error answer, the child's death or the timeout."""
        end = None if timeout is None else time.monotonic() + timeout
        shown = None
        cancel_sent = False
        with self._cond:
            while seq not in self._answers:
                if self.exited:
                    self._open.discard(seq)
                    raise WorkerFailed("the index writer stopped")
                if end is not None and time.monotonic() > end:
                    raise WorkerFailed(f"the index writer did not answer within {timeout} s")
                if progress and self.progress and self.progress != shown:
                    shown = self.progress
                    self._cond.release()
                    try:
                        progress(shown[1], shown[2])
                    finally:
                        self._cond.acquire()
                if cancelled and not cancel_sent and cancelled():
                    cancel_sent = True
                    self._cond.release()
                    try:
                        self.send("cancel")
                    finally:
                        self._cond.acquire()
                self._cond.wait(0.1)
            answer = self._answers.pop(seq)
        if answer["event"] == "error":
            raise WorkerFailed(answer.get("message", "failed"), bool(answer.get("damaged")))
        return answer

    # ---- the child's output ----------------------------------------------------------------
    def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        try:
            for line in self.proc.stdout:
                try:
                    event = json.loads(line)
                except ValueError:
                    log.warning("index writer: %s", line.rstrip())
                    continue
                with self._cond:
                    kind = event.get("event")
                    if kind == "progress":
                        self.progress = (event.get("phase", ""), event.get("done", 0), event.get("total", 0))
                    elif kind in ("done", "error"):
                        seq = event.get("seq")
                        if seq in self._open:
                            self._open.discard(seq)
                            self._answers[seq] = event
                        if not self._open:
                            self.progress = None
                    self._cond.notify_all()
                self._emit(event)
        finally:
            with self._cond:
                self.exited = True
                self._open.clear()
                self._cond.notify_all()
            self._emit({"event": "exit", "code": self.proc.poll()})

    def _emit(self, event: Event) -> None:
        if self.on_event is not None:
            try:
                self.on_event(event)
            except Exception:
                log.exception("index writer event listener failed")

    def _log_stderr(self) -> None:
        assert self.proc is not None and self.proc.stderr is not None
        for line in self.proc.stderr:
            if line.strip():
                log.warning("index writer: %s", line.rstrip())
