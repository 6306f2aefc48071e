#!/usr/bin/env python3
"""Render the app icon's SVG source into the raster icons the installers need.

    python packaging/gen_icons.py [--svg resources/icons/marginalia.svg] [--out build/icons]

Writes into OUT:
    png/<size>.png            16 24 32 48 64 128 256 512 (hicolor sizes) and 1024
    marginalia.ico            Windows: 16-256 px, PNG-compressed entries (Vista and later)
    marginalia.icns           macOS: 16-1024 px incl. @2x, PNG-compressed entries
    preview.png               every size side by side, for a human to look at

Rendering uses Qt's own SVG renderer (QtSvg ships in PySide6-Essentials) on the offscreen
platform, so it runs headless on any CI runner. The .ico/.icns containers are written here
(both formats are a short header plus PNG payloads); Qt then reads them back as a check.
Generated files belong in build/, never in git.
"""

from __future__ import annotations

import argparse
import os
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HICOLOR_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# icns element type -> pixel size (the @2x types carry double-resolution art)
ICNS_TYPES = (
    (b"icp4", 16),
    (b"icp5", 32),
    (b"icp6", 64),
    (b"ic07", 128),
    (b"ic08", 256),
    (b"ic09", 512),
    (b"ic10", 1024),
    (b"ic11", 32),
    (b"ic12", 64),
    (b"ic13", 256),
    (b"ic14", 512),
)


def _qt() -> object:
    os.environ["QT_QPA_PLATFORM"] = "offscreen"  # headless everywhere; no window is shown
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance() or QGuiApplication(["gen_icons"])
    return app


def render_png(renderer: object, size: int) -> bytes:  # a QSvgRenderer
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF, Qt
    from PySide6.QtGui import QImage, QPainter

    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
    renderer.render(painter, QRectF(0, 0, size, size))
    painter.end()
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buf, "PNG"):
        raise RuntimeError(f"could not encode {size}px PNG")
    buf.close()
    return bytes(data)


def ico_bytes(pngs: dict[int, bytes]) -> bytes:
    """ICONDIR + ICONDIRENTRYs + PNG payloads (a width/height byte of 0 means 256)."""
    sizes = [s for s in ICO_SIZES if s in pngs]
    header = struct.pack("<HHH", 0, 1, len(sizes))
    offset = len(header) + 16 * len(sizes)
    entries, payload = b"", b""
    for s in sizes:
        data = pngs[s]
        dim = 0 if s >= 256 else s
        entries += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(data), offset)
        offset += len(data)
        payload += data
    return header + entries + payload


def icns_bytes(pngs: dict[int, bytes]) -> bytes:
    body = b"".join(kind + struct.pack(">I", 8 + len(pngs[s])) + pngs[s] for kind, s in ICNS_TYPES)
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def preview(pngs: dict[int, bytes], path: Path) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QColor, QImage, QPainter

    sizes = list(HICOLOR_SIZES[:-1])  # up to 256 side by side
    width = sum(sizes) + 16 * (len(sizes) + 1)
    height = max(sizes) + 32
    sheet = QImage(width, height * 2, QImage.Format.Format_ARGB32)
    sheet.fill(QColor("#ffffff"))
    p = QPainter(sheet)
    p.fillRect(0, height, width, height, QColor("#2b2b2b"))  # dark-theme row
    x = 16
    for s in sizes:
        img = QImage.fromData(pngs[s], "PNG")
        for row in (0, 1):
            p.drawImage(x, row * height + 16 + (max(sizes) - s), img)
        x += s + 16
    p.end()
    sheet.save(str(path), "PNG")
    del Qt


def check_readback(ico: Path, icns: Path) -> None:
    from PySide6.QtGui import QImageReader

    for path, expected in ((ico, len(ICO_SIZES)), (icns, None)):
        reader = QImageReader(str(path))
        if not reader.canRead():
            fmt = path.suffix[1:].encode()
            if fmt not in [bytes(f) for f in QImageReader.supportedImageFormats()]:
                print(f"gen_icons: no Qt {fmt.decode()} reader here; skipped read-back of {path.name}")
                continue
            raise SystemExit(f"gen_icons: Qt cannot read back {path}")
        count = reader.imageCount()
        if expected is not None and count != expected:
            raise SystemExit(f"gen_icons: {path.name} holds {count} images, expected {expected}")
        if reader.read().isNull():
            raise SystemExit(f"gen_icons: {path.name} reads back as a null image")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--svg", type=Path, default=ROOT / "resources" / "icons" / "marginalia.svg")
    ap.add_argument("--out", type=Path, default=ROOT / "build" / "icons")
    args = ap.parse_args(argv)

    _app = _qt()
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(args.svg))
    if not renderer.isValid():
        raise SystemExit(f"gen_icons: {args.svg} is not a valid SVG for Qt")

    wanted = sorted(set(HICOLOR_SIZES) | set(ICO_SIZES) | {s for _, s in ICNS_TYPES})
    pngs = {s: render_png(renderer, s) for s in wanted}

    (args.out / "png").mkdir(parents=True, exist_ok=True)
    for s, data in pngs.items():
        (args.out / "png" / f"{s}.png").write_bytes(data)
    ico = args.out / "marginalia.ico"
    icns = args.out / "marginalia.icns"
    ico.write_bytes(ico_bytes(pngs))
    icns.write_bytes(icns_bytes(pngs))
    preview(pngs, args.out / "preview.png")
    check_readback(ico, icns)
    print(f"gen_icons: {len(pngs)} sizes, .ico, .icns -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
