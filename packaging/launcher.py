"""PyInstaller entry script: hands over to the console script's function.

A package's ``__main__.py`` cannot serve as the frozen script (PyInstaller runs it as a
top-level module, so its package context is lost); this file imports the real entry point.
"""

import sys

from desktop_app.cli import main

if __name__ == "__main__":
    sys.exit(main())
