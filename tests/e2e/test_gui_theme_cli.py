"""``gui --screenshot --theme light|dark`` renders that scheme; ``--view`` names what to render."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QImage

from desktop_app.gui.theme import relative_luminance
from tests.helpers.cli import run_app


def _mean_luminance(img: QImage) -> float:
    samples = [img.pixelColor(x, y) for x in range(0, img.width(), 23) for y in range(0, img.height(), 19)]
    return sum(relative_luminance(c) for c in samples) / len(samples)


def test_screenshot_in_light_and_in_dark(tmp_path: Path, seed_paths: list[Path]) -> None:
    lib = tmp_path / "lib"
    assert run_app("--library", str(lib), "import", *map(str, seed_paths)).returncode == 0
    mean = {}
    for scheme in ("light", "dark"):
        out = tmp_path / f"{scheme}.png"
        res = run_app(
            "--library",
            str(lib),
            "gui",
            "--screenshot",
            str(out),
            "--theme",
            scheme,
            "--view",
            "main",
            "--select",
            "1",
            "--size",
            "1000x700",
        )
        assert res.returncode == 0, res.stderr
        img = QImage(str(out))
        assert (img.width(), img.height()) == (1000, 700)
        mean[scheme] = _mean_luminance(img)
    assert mean["light"] > 0.6 and mean["dark"] < 0.15, mean


def test_an_unknown_view_is_refused_with_the_names(tmp_path: Path) -> None:
    out = tmp_path / "shot.png"
    res = run_app("--library", str(tmp_path / "lib"), "gui", "--screenshot", str(out), "--view", "nosuch")
    assert res.returncode == 1 and not out.exists()
    assert "nosuch" in res.stderr and "main" in res.stderr, res.stderr
