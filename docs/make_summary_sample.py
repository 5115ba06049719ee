"""Make docs/screenshots/summary-page.png: page 1 of the PDF summary of a two-round fight.

The fight is the demo fight's first two rounds, played through the real street-fighter
rules by tests/report/demo_rounds.py (the same session tests/report/test_real_rounds.py
checks). The PDF is written by the app's own code (fightdesk.ui.summary_files),
converted with ``pdftoppm -png -r 80`` (poppler-utils) and the first page is copied here.

    python docs/make_summary_sample.py [--paper a4|letter] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "docs" / "screenshots" / "summary-page.png"


def two_round_session():  # type: ignore[no-untyped-def]
    """The demo fight after two real street-fighter rounds (tests/report/demo_rounds.py)."""
    sys.path.insert(0, str(ROOT))
    from tests.report.demo_rounds import played_demo_rounds

    return played_demo_rounds()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--paper", choices=("a4", "letter"), default="a4")
    parser.add_argument("--keep", type=Path, help="also keep the PDF and all page images here")
    args = parser.parse_args()
    if shutil.which("pdftoppm") is None:
        print("pdftoppm is missing: apt-get install poppler-utils", file=sys.stderr)
        return 2
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])  # noqa: F841  (fonts and printing)
    from fightdesk.report import summarize
    from fightdesk.ui.summary_files import write_pdf

    summary = summarize(two_round_session(), [1, 2])
    with tempfile.TemporaryDirectory(prefix="fightdesk-sample-") as tmp:
        folder = Path(tmp)
        pdf = folder / "summary.pdf"
        write_pdf(summary, pdf, args.paper)
        subprocess.run(["pdftoppm", "-png", "-r", "80", str(pdf), str(folder / "page")],
                       check=True)
        pages = sorted(folder.glob("page-*.png"))
        TARGET.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(pages[0], TARGET)
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            for item in [pdf, *pages]:
                shutil.copyfile(item, args.keep / item.name)
    print(f"{len(pages)} pages; wrote {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
