"""One fault-injection victim: does one kind of work in a loop, printing an acknowledgement after
each piece is stored, until it is killed (``python -m tests.e2e.fault_worker LIB KIND [FILE]``)."""

from __future__ import annotations

import sys
from pathlib import Path


def main(folder: str, kind: str, extra: str = "") -> None:
    from desktop_app.core.library import Library

    lib = Library.open(folder, ensure_index=kind != "reindex")
    ids = lib.query("").ids
    print("ready", flush=True)
    n = 0
    while True:
        if kind == "import":
            lib.imports.from_files([extra], duplicates="skip")
        elif kind == "tag":
            lib.tags.add(ids, [f"fault/t{n}"])
        elif kind == "note":
            lib.notes.set(ids[0], f"note text {n}")
        elif kind == "reindex":
            lib.reindex()
        elif kind == "export":
            from desktop_app.exporting import export_to_file

            export_to_file(lib, "json", Path(extra), query="")
        print(f"ack {n}", flush=True)
        n += 1


if __name__ == "__main__":
    main(*sys.argv[1:])
