"""Render resources/icons/fightdesk.svg into the icon files desktops ask for.

- ``fightdesk-<N>.png`` for N in SIZES: the hicolor theme sizes of Linux desktops (the
  .desktop file's ``Icon=`` is looked up among them), also the window icon sizes;
- ``fightdesk.ico``: Windows (the executables' icon, Explorer, the taskbar);
- ``fightdesk.icns``: macOS (the application bundle's icon).

Qt's own SVG renderer (QtSvg, part of PySide6-Essentials) draws every size from the
vector source, so small sizes are drawn small rather than scaled down from a big bitmap;
Pillow only packs the drawn images into .ico and .icns. The files are committed, so an
installed fightdesk needs neither; rerun this after changing the SVG (a test compares the
PNGs with the SVG):

    python packaging/make_icons.py          # needs PySide6 and Pillow (requirements/bundle.txt)
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ICONS = ROOT / "resources" / "icons"
SVG = ICONS / "fightdesk.svg"
# hicolor's usual sizes, 16 to 512.
SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)
# An .ico holds 16..256; Explorer picks among them.
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# An .icns holds 16..512 and each one's double-density twin (up to 1024).
ICNS_RENDER = (16, 32, 64, 128, 256, 512, 1024)


def png_name(size: int) -> str:
    return f"fightdesk-{size}.png"


def render_png(svg: Path, size: int) -> bytes:
    """The SVG drawn on a transparent ``size`` x ``size`` square, as PNG bytes."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    if QGuiApplication.instance() is None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        # Kept on the function: the application must outlive every render.
        render_png.app = QGuiApplication([sys.argv[0]])  # type: ignore[attr-defined]
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"{svg}: not an SVG that Qt can draw")
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")  # type: ignore[call-overload]  # stubs say bytes; PySide6 wants str
    buffer.close()
    return bytes(data.data())


def write_icons(svg: Path, folder: Path) -> list[Path]:
    """Write every PNG size, the .ico and the .icns into ``folder``; return their paths."""
    from PIL import Image

    drawn = {size: render_png(svg, size) for size in sorted({*SIZES, *ICO_SIZES, *ICNS_RENDER})}
    written = []
    for size in SIZES:
        path = folder / png_name(size)
        path.write_bytes(drawn[size])
        written.append(path)
    images = {size: Image.open(io.BytesIO(data)).convert("RGBA") for size, data in drawn.items()}
    ico = folder / "fightdesk.ico"
    largest_ico = images[max(ICO_SIZES)]
    largest_ico.save(ico, format="ICO", sizes=[(s, s) for s in ICO_SIZES],
                     append_images=[images[s] for s in ICO_SIZES if s != max(ICO_SIZES)])
    written.append(ico)
    icns = folder / "fightdesk.icns"
    largest_icns = images[max(ICNS_RENDER)]
    largest_icns.save(icns, format="ICNS",
                      append_images=[images[s] for s in ICNS_RENDER if s != max(ICNS_RENDER)])
    written.append(icns)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--svg", type=Path, default=SVG, help=f"the source (default {SVG})")
    parser.add_argument("--out", type=Path, default=ICONS, help=f"the folder (default {ICONS})")
    args = parser.parse_args(argv)
    try:
        import PIL  # noqa: F401
        import PySide6  # noqa: F401
    except ImportError as exc:
        print(f"make_icons: {exc.name} is missing: pip install -r requirements/bundle.txt",
              file=sys.stderr)
        return 2
    if not args.svg.is_file():
        print(f"make_icons: {args.svg} does not exist", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    for path in write_icons(args.svg, args.out):
        print(f"{path} ({path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
