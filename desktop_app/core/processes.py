"""Whether another process is still running, asked without touching it, on every platform.

On Windows ``os.kill(pid, 0)`` does not test a process: signal 0 is ``CTRL_C_EVENT`` and any
other value ends the process. So there the process is opened for a query of its exit code.
"""

from __future__ import annotations

import os
import sys

_STILL_ACTIVE = 259  # GetExitCodeProcess's code for a process that has not ended
_ACCESS_DENIED = 5


def process_running(pid: int) -> bool:
    """Whether process ``pid`` exists (this process included; one of another user counts)."""
    if pid <= 0:
        return False
    if pid == os.getpid():
        return True
    if sys.platform == "win32":  # (mypy checks this branch only for Windows)
        import ctypes

        kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
        handle = kernel32.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
        if not handle:
            return ctypes.get_last_error() == _ACCESS_DENIED  # there, but not ours to open
        try:
            code = ctypes.c_ulong()
            return not kernel32.GetExitCodeProcess(handle, ctypes.byref(code)) or code.value == _STILL_ACTIVE
        finally:
            kernel32.CloseHandle(handle)
    try:
        os.kill(pid, 0)  # POSIX: signal 0 only checks that the process exists
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, under another user
        return True
    except OSError:
        return False
    return True
