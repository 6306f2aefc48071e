"""A note writer for the concurrency tests and the soak: one process, one library connection.

``python -m tests.core.note_writers LIB PAPER WORKER ROUNDS set|append START_FILE`` waits until
START_FILE exists (so that every writer starts at once), then writes ROUNDS texts and prints each
one after its write returned: a printed text is an acknowledged text.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path


def main(argv: list[str]) -> int:
    folder, paper, worker, rounds, mode, start = argv
    from desktop_app.core.library import Library

    lib = Library.open(folder, ensure_index=False)
    try:
        while not Path(start).exists():
            time.sleep(0.005)
        for r in range(int(rounds)):
            text = f"writer {worker} round {r}"
            if mode == "set":
                lib.notes.set(int(paper), text)
            else:
                lib.notes.append(int(paper), text)
            print(text, flush=True)
    finally:
        lib.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
