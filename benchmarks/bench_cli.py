"""The command line's cost per call, beside a bare Python process, in its own process and
answered by ``marginalia serve``.

For each read command: the median CPU (user + system) and wall time of the ``marginalia``
process, the ratio of its CPU to ``python -c 'import sqlite3'`` measured in the same run, and
with a server running the CPU the server spent per answer (read from /proc), so the total work
is on the page too. "In a loop": the command called 12 times in a row with no server running,
as a script does; the second call starts ``marginalia serve`` by itself
(``cli_remote.start_server_if_repeated``), so the figure is the median CPU of calls 5–12 (with
the started server's CPU per answer), the first two calls printed beside it. Targets: the process's CPU ≤ 8× the bare one at 10,000 papers and ≤ 10× at
100,000. The machine's load is printed first.

    .venv/bin/python benchmarks/bench_cli.py --sizes 10000 100000
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from common import cached_library, environment, ms, verdict

from desktop_app import cli_remote

TARGETS = {10_000: 8.0, 100_000: 10.0}
COMMANDS = [
    ["search", "transformer"],
    ["list", "--query", "graph", "--limit", "50"],
    ["show", "42"],
    ["related", "42"],
    ["triage", "queue", "--limit", "20"],
    ["stats"],
]


def run(argv: list[str], env: dict[str, str], runs: int) -> tuple[float, float]:
    """Median (CPU, wall) of a child process."""
    cpu, wall = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        wall.append(time.perf_counter() - t0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(cpu), statistics.median(wall)


def proc_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(folder: Path, env: dict[str, str]) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-m", "desktop_app", "--library", str(folder), "serve", "--idle", "0"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    path = cli_remote.socket_path(folder)
    assert path is not None, "no private folder for the socket"
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        sock = cli_remote.connect(path, 0.2) if path.exists() else None
        if sock is not None:
            sock.close()
            return proc
        if proc.poll() is not None:
            raise SystemExit("marginalia serve ended before it listened")
        time.sleep(0.2)
    raise SystemExit("marginalia serve never listened")


def start_window(folder: Path, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], dict[str, str], str]:
    """The window on *folder* (offscreen), answering read commands from its thread
    (gui/command_answers.py) on a socket in a folder of its own; the environment that reaches it."""
    run_dir = tempfile.mkdtemp(prefix="bench-cli-window-")
    os.chmod(run_dir, 0o700)
    window_env = {**env, "XDG_RUNTIME_DIR": run_dir, "QT_QPA_PLATFORM": "offscreen", "MARGINALIA_WINDOW_ANSWERS": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "desktop_app", "--library", str(folder), "gui"],
        env=window_env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    socket_name = cli_remote.socket_path(folder)
    assert socket_name is not None, "no Unix sockets here"
    path = Path(run_dir) / socket_name.name
    deadline = time.monotonic() + 900
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit("the window ended before it answered")
        if cli_remote.ask_at(path, folder, ["show", "1"]) is not None:  # answered, not refused (index not ready)
            return proc, window_env, run_dir
        time.sleep(0.5)
    raise SystemExit("the window never answered")


LOOP_CALLS = 12
LOOP_SETTLED = 4  # calls before the started server is taken to answer (it opens the library meanwhile)


def _serve_pids(folder: Path, besides: int) -> list[int]:
    """The ``marginalia serve`` processes for *folder* other than *besides* (the bench's own)."""
    pids = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                argv = (proc / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"serve" in argv and str(folder).encode() in argv and int(proc.name) != besides:
                pids.append(int(proc.name))
    return pids


def in_a_loop(argv: list[str], env: dict[str, str], folder: Path, besides: int) -> tuple[float, float, float, float]:
    """(median CPU of the settled calls, their wall, the started server's CPU per answer, CPU of
    the first two calls): the command called LOOP_CALLS times with no server running at first."""
    with tempfile.TemporaryDirectory(prefix="bench-cli-run-") as run_dir:
        os.chmod(run_dir, 0o700)
        loop_env = {**env, "XDG_RUNTIME_DIR": run_dir}
        loop_env.pop(cli_remote.AUTO_SERVE_ENV, None)
        cpu, wall, server_cpu = [], [], 0.0
        server_before: dict[int, float] = {}
        try:
            for i in range(LOOP_CALLS):
                if i == LOOP_SETTLED:
                    time.sleep(2.0)  # what a script's own work between calls would give the server
                    server_before = {pid: proc_cpu(pid) for pid in _serve_pids(folder, besides)}
                c, w = run(argv, loop_env, 1)
                cpu.append(c)
                wall.append(w)
            server_cpu = sum(proc_cpu(pid) - before for pid, before in server_before.items())
        finally:
            for pid in _serve_pids(folder, besides):
                os.kill(pid, signal.SIGTERM)
        settled = cpu[LOOP_SETTLED:]
        return (
            statistics.median(settled),
            statistics.median(wall[LOOP_SETTLED:]),
            server_cpu / len(settled),
            cpu[0] + cpu[1],
        )


def bench(size: int, runs: int) -> bool:
    folder = cached_library(size)
    root = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": root}
    env.pop(cli_remote.NO_SERVER_ENV, None)
    alone_env = {**env, cli_remote.NO_SERVER_ENV: "1"}
    floor, floor_wall = run([sys.executable, "-c", "import sqlite3"], env, runs)
    target = TARGETS.get(size, 10.0)
    print(
        f"\n{size:,} papers ({folder}); floor `python -c 'import sqlite3'`: CPU {ms(floor)}, wall "
        f"{ms(floor_wall)}; target: CPU ≤ {target:.0f}× the floor"
    )
    print(
        f"  {'command':<34} {'own process CPU':>16} {'×':>6} {'wall':>9}   {'served CPU':>11} {'×':>6}"
        f" {'wall':>9} {'server CPU':>11}   {'in a loop CPU':>13} {'×':>6} {'server CPU':>11}"
        f" {'first two':>10}  verdict"
    )
    ok = True
    slowest_alone = 0.0  # the own process's worst ratio: its verdict is printed apart
    server = start_server(folder, env)
    window, window_env, window_dir = start_window(folder, env)
    answered_by_window: list[str] = []
    try:
        for args in COMMANDS:
            argv = [sys.executable, "-m", "desktop_app", "--library", str(folder), *args]
            alone_cpu, alone_wall = run(argv, alone_env, max(2, runs // 2))
            run(argv, env, 1)  # the server's first answer warms what this command reads
            c0 = proc_cpu(server.pid)
            served_cpu, served_wall = run(argv, env, runs)
            per_answer = (proc_cpu(server.pid) - c0) / runs
            run(argv, window_env, 1)  # warms the window thread's library for this command
            w0 = proc_cpu(window.pid)
            window_cpu, window_wall = run(argv, window_env, runs)
            window_answer = (proc_cpu(window.pid) - w0) / runs
            answered_by_window.append(
                f"  {' '.join(args):<34} {ms(window_cpu):>11} {window_cpu / floor:>5.1f}× {ms(window_wall):>9}"
                f" {ms(window_answer):>11}  {verdict(window_cpu / floor <= target)}"
            )
            loop_cpu, _loop_wall, loop_server, first_two = in_a_loop(argv, env, folder, server.pid)
            passed = served_cpu / floor <= target and loop_cpu / floor <= target
            slowest_alone = max(slowest_alone, alone_cpu / floor)
            ok &= passed
            print(
                f"  {' '.join(args):<34} {ms(alone_cpu):>16} {alone_cpu / floor:>5.1f}× {ms(alone_wall):>9}   "
                f"{ms(served_cpu):>11} {served_cpu / floor:>5.1f}× {ms(served_wall):>9} {ms(per_answer):>11}   "
                f"{ms(loop_cpu):>13} {loop_cpu / floor:>5.1f}× {ms(loop_server):>11} {ms(first_two):>10}  "
                f"{verdict(passed)}"
            )
    finally:
        server.terminate()
        server.wait(60)
        window.terminate()
        window.wait(60)
        shutil.rmtree(window_dir, ignore_errors=True)
    print(
        f"  own process, nothing running on the library: up to {slowest_alone:.1f}× the floor "
        f"(target ≤ {target:.0f}×): {verdict(slowest_alone <= target)} (not in the verdict above: "
        "the served, window and loop figures are)"
    )
    print(
        f"  answered by the window open on the library (its thread, gui/command_answers.py):\n"
        f"  {'command':<34} {'CPU':>11} {'×':>6} {'wall':>9} {'window CPU':>11}"
    )
    print("\n".join(answered_by_window))
    return ok


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", type=int, nargs="+", default=[10_000])
    p.add_argument("--runs", type=int, default=7)
    args = p.parse_args()
    print(environment(), f"· load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    ok = all([bench(size, args.runs) for size in args.sizes])
    print(f"\nload average at the end {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
