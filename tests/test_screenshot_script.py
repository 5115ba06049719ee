"""docs/make_screenshots.py drives the real window through whole fights; when the window
or a ruleset's questions change, the script must still run, or docs/screenshots/ can no
longer be made again. Here it runs on the light palette into a temporary folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "docs" / "make_screenshots.py"

# Every picture the README and docs/ui.md show in light, by the part of the script
# that makes it.
PARTS = {
    "--tables": ["roll-tables-light.png"],
    "--player": ["player-view-light.png"],
    "--roll-under": ["roll-under-light.png", "roll-under-small-screen-light.png"],
    "--d100": ["d100-light.png", "d100-small-screen-light.png"],
    "--ashes": ["ashes-light.png", "ashes-small-screen-light.png"],
    "--log": ["log-narrow-light.png", "log-wide-light.png"],
    "--simulate": ["simulate-light.png"],
    "--fight": ["main-window-light.png", "interrupt-stack-light.png", "action-dialog-light.png",
                "street-fighter-small-screen-light.png", "groups-small-screen-light.png"],
}


@pytest.mark.slow
@pytest.mark.parametrize("part", sorted(PARTS))
def test_the_screenshot_script_makes_its_pictures(part: str, tmp_path: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, str(SCRIPT), part, "--light", "--out", str(tmp_path)],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    for name in PARTS[part]:
        image = QImage(str(tmp_path / name))
        assert not image.isNull(), f"{name} was not made"
        assert image.width() >= 250 and image.height() >= 250, (name, image.size())
        # Not one flat colour: something was painted.
        colours = {image.pixel(x, y) for x in range(0, image.width(), 37)
                   for y in range(0, image.height(), 29)}
        assert len(colours) > 5, name
    # Nothing was written into the project's own screenshots.
    assert not list(tmp_path.glob("*-dark.png"))
