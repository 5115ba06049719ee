"""The desktop integration files agree with each other and with the package."""

from __future__ import annotations

import configparser
import xml.etree.ElementTree as ET
from pathlib import Path

import fightdesk
from fightdesk.app import APP_ID

ROOT = Path(__file__).resolve().parents[1]
PACKAGING = ROOT / "packaging"


def test_desktop_entry_starts_the_gui_script() -> None:
    entry = configparser.ConfigParser(interpolation=None)
    # Desktop entry keys are case-sensitive. Replacing optionxform is configparser's documented
    # way to keep case, but typeshed declares it a method, hence the ignore.
    entry.optionxform = str  # type: ignore[assignment,method-assign]
    entry.read(PACKAGING / f"{APP_ID}.desktop", encoding="utf-8")
    desktop = entry["Desktop Entry"]
    assert desktop["Type"] == "Application"
    assert desktop["Exec"].split()[0] == "fightdesk-gui"
    assert desktop["Icon"] == APP_ID
    assert desktop["Terminal"] == "false"


def test_metainfo_names_this_app_and_version() -> None:
    root = ET.parse(PACKAGING / f"{APP_ID}.metainfo.xml").getroot()
    assert root.get("type") == "desktop-application"
    assert root.findtext("id") == APP_ID
    launchable = root.find("launchable")
    assert launchable is not None and launchable.text == f"{APP_ID}.desktop"
    versions = [r.get("version") for r in root.iter("release")]
    assert versions[0] == fightdesk.__version__, "add a <release> for the new version"
    binaries = {b.text for b in root.iter("binary")}
    assert binaries == {"fightdesk", "fightdesk-gui"}


def test_icon_is_a_square_svg() -> None:
    svg = ET.parse(ROOT / "resources" / "icons" / "fightdesk.svg").getroot()
    assert svg.tag == "{http://www.w3.org/2000/svg}svg"
    assert svg.get("viewBox") == "0 0 128 128"


def test_pyinstaller_spec_names_both_programs() -> None:
    spec = (PACKAGING / "fightdesk.spec").read_text(encoding="utf-8")
    assert 'name="fightdesk"' in spec and 'name="fightdesk-gui"' in spec
    assert "fightdesk/__main__.py" in spec and (PACKAGING / "fightdesk_gui.py").exists()


def _ci_value(name: str) -> str:
    for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines():
        if line.startswith(f"{name}="):
            return line.split("=", 1)[1]
    raise AssertionError(f"{name} is not set in .ci/run")


def test_ci_runs_exactly_the_readme_test_command() -> None:
    command = _ci_value("TEST_COMMAND").strip('"')
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"\n{command}\n" in readme
    assert "pytest" in command and "ci-constraints.txt" in command


def test_readme_ci_and_app_name_the_same_system_packages() -> None:
    from fightdesk.app import LINUX_PACKAGES

    ci_packages = _ci_value("QT_PACKAGES").strip("()").split()
    assert ci_packages == LINUX_PACKAGES.split()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"apt-get install {' '.join(ci_packages)}\n" in readme
