"""PyInstaller entry script: hands over to the console script's function.

A package's ``__main__.py`` cannot serve as the frozen script (PyInstaller runs it as a
top-level module, so its package context is lost); this file imports the real entry point.

``marginalia --check-bundle-imports MODULE...`` (the packaging checks' own option, not the
app's) imports each module inside the bundle and prints one line per module: whether the
bundle holds what a lazily imported part of the app (scikit-learn, the PostgreSQL driver)
will need, without waiting for a user to reach it.
"""

import importlib
import sys

CHECK_IMPORTS = "--check-bundle-imports"


def check_imports(modules: list[str]) -> int:
    failed = 0
    for name in modules:
        try:
            importlib.import_module(name)
        except Exception as exc:  # noqa: BLE001 (any failure to import is the finding)
            failed += 1
            print(f"FAILED {name}: {type(exc).__name__}: {exc}")
        else:
            print(f"ok {name}")
    return 1 if failed else 0


if __name__ == "__main__":
    if sys.argv[1:2] == [CHECK_IMPORTS]:
        sys.exit(check_imports(sys.argv[2:]))
    from desktop_app.cli import main

    sys.exit(main())
