"""A thread's prints are captured while the other threads' still reach the real streams."""

from __future__ import annotations

import io
import sys
import threading

import pytest

from desktop_app.thread_output import captured


def test_two_threads_capture_their_own_and_the_main_thread_prints_as_before(
    capsys: pytest.CaptureFixture[str],
) -> None:
    buffers = {name: (io.StringIO(), io.StringIO()) for name in ("a", "b")}
    inside = threading.Barrier(3)  # both threads capture while the main thread prints
    done = threading.Barrier(3)

    def work(name: str) -> None:
        out, err = buffers[name]
        with captured(out, err):
            inside.wait()
            for n in range(200):
                print(f"{name}{n}")
                print(f"{name}-err", file=sys.stderr)
            done.wait()

    threads = [threading.Thread(target=work, args=(name,)) for name in buffers]
    for t in threads:
        t.start()
    inside.wait()
    print("main thread")
    print("main err", file=sys.stderr)
    done.wait()
    for t in threads:
        t.join()
    for name, (out, err) in buffers.items():
        assert out.getvalue() == "".join(f"{name}{n}\n" for n in range(200))
        assert err.getvalue() == f"{name}-err\n" * 200
    seen = capsys.readouterr()
    assert (seen.out, seen.err) == ("main thread\n", "main err\n")
    assert type(sys.stdout).__name__ != "_Router" and type(sys.stderr).__name__ != "_Router"  # put back


def test_a_process_without_streams_loses_nothing_it_captures(monkeypatch: pytest.MonkeyPatch) -> None:
    """A window started without a console has no sys.stdout; a capturing thread still gets its text."""
    monkeypatch.setattr(sys, "stdout", None)
    out, err = io.StringIO(), io.StringIO()
    with captured(out, err):
        print("answer")
        sys.stdout.flush()
    assert out.getvalue() == "answer\n" and sys.stdout is None
