"""Only regular files are opened for import: a FIFO, a device, a folder or a loop of symbolic
links gets a one-line message naming what it is, and nothing waits on a FIFO."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from desktop_app.core.formats import read_path
from desktop_app.core.formats.regular_file import NotAFile, not_a_file, open_regular
from desktop_app.core.library import Library

needs_posix = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")


def _in_time(call, seconds: float = 10.0):
    """The result of ``call()`` run in a thread; fails if it is still waiting after ``seconds``."""
    out: list = []
    worker = threading.Thread(target=lambda: out.append(call()), daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), "blocked opening the file"
    return out[0]


@needs_posix
def test_a_fifo_is_named_and_never_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "papers.bib"
    os.mkfifo(fifo)
    result = _in_time(lambda: read_path(fifo))
    assert result.records == []
    assert [str(e) for e in result.errors] == ["papers.bib is a FIFO (named pipe), not a file"]
    with Library.open(tmp_path / "lib", background_index=True) as lib:
        report = _in_time(lambda: lib.imports.from_files([fifo]))
    assert report.files[0].errors == ["papers.bib is a FIFO (named pipe), not a file"]
    with pytest.raises(NotAFile):
        open_regular(fifo)


@needs_posix
def test_a_loop_of_symbolic_links_a_folder_and_a_device_are_named(tmp_path: Path) -> None:
    (tmp_path / "a.bib").symlink_to(tmp_path / "b.bib")
    (tmp_path / "b.bib").symlink_to(tmp_path / "a.bib")
    (tmp_path / "gone.bib").symlink_to(tmp_path / "nowhere.bib")
    (tmp_path / "folder.bib").mkdir()
    assert not_a_file(tmp_path / "a.bib") == "a.bib is a loop of symbolic links, not a file"
    assert not_a_file(tmp_path / "gone.bib") == "gone.bib is a symbolic link to nothing, not a file"
    assert not_a_file(tmp_path / "folder.bib") == "folder.bib is a folder, not a file"
    if Path("/dev/null").exists():
        assert not_a_file("/dev/null") == "null is a character device, not a file"
        assert [str(e) for e in _in_time(lambda: read_path("/dev/zero")).errors] == [
            "zero is a character device, not a file"
        ]
    assert [str(e) for e in read_path(tmp_path / "a.bib").errors] == ["a.bib is a loop of symbolic links, not a file"]


def test_a_regular_file_and_a_link_to_one_are_read(tmp_path: Path) -> None:
    real = tmp_path / "real.bib"
    real.write_text("@article{a, title = {Real}, year = 2020}\n", encoding="utf-8")
    (tmp_path / "link.bib").symlink_to(real)
    assert not_a_file(real) is None and not_a_file(tmp_path / "link.bib") is None
    assert [r.title for r in read_path(tmp_path / "link.bib").records] == ["Real"]
    assert "cannot open nope.bib" in str(read_path(tmp_path / "nope.bib").errors[0])
