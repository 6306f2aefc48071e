"""Run-time hook for PySide6 that replaces PyInstaller's own (packaging/hooks/rthooks.dat).

PyInstaller's hook imports PySide6.QtCore at start-up, before any app code runs, so every
command of the bundle (``marginalia --version``, ``list``, ``search``...) paid for loading Qt.
This one only tells Qt where the bundled plugins are; the PySide6 wheel makes its Qt relocatable
itself (an embedded qt.conf written when PySide6 is imported), so nothing else is needed until
the window is opened.
"""


def _marginalia_qt_env() -> None:
    import os
    import sys

    base = sys._MEIPASS  # type: ignore[attr-defined]  # set by PyInstaller's bootloader
    qt = os.path.join(base, "PySide6") if sys.platform.startswith("win") else os.path.join(base, "PySide6", "Qt")
    os.environ["QT_PLUGIN_PATH"] = os.path.join(qt, "plugins")
    os.environ["QML2_IMPORT_PATH"] = os.path.join(qt, "qml")

    def prepend(name: str, path: str) -> None:
        old = os.environ.get(name)
        os.environ[name] = path + (os.pathsep + old if old else "")

    # Windows: DLLs collected beside the program (OpenSSL for QtNetwork) are found through PATH;
    # macOS outside an .app: the same through DYLD_LIBRARY_PATH
    if sys.platform.startswith("win"):
        prepend("PATH", base)
    elif sys.platform == "darwin" and not base.rstrip("/").endswith("Contents/Frameworks"):
        prepend("DYLD_LIBRARY_PATH", base)


_marginalia_qt_env()
del _marginalia_qt_env
