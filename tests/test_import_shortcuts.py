"""The start-up shortcuts around PySide6's and pydantic's import-time work really skip
that work, change nothing else, and step aside when they should."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pydantic

from fightdesk import import_shortcuts


def run_python(code: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    environment.update(QT_QPA_PLATFORM="offscreen", **env)
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          timeout=120, env=environment)


SOURCE_SCAN_CHECK = """
import inspect, sys
from PySide6.QtWidgets import QApplication
from fightdesk.import_shortcuts import skip_pyside_source_scan

read = []
real = inspect.getsource
inspect.getsource = lambda obj: read.append(getattr(obj, "__name__", "?")) or real(obj)
sys.path.insert(0, sys.argv[1])
import plain_one  # an import statement: the hook sits in __import__
before = list(read)
skip_pyside_source_scan()
import plain_two
print(before, read)
assert "plain_one" in before, "PySide6 no longer reads sources: the skip can go"
assert "plain_two" not in read
"""


def test_modules_imported_after_the_skip_are_not_read_by_pyside(tmp_path: Path) -> None:
    """The skip really spares each later import PySide6's reading of its source."""
    (tmp_path / "plain_one.py").write_text("VALUE = 1\n")
    (tmp_path / "plain_two.py").write_text("VALUE = 2\n")
    done = run_python(SOURCE_SCAN_CHECK, str(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr


PLUGIN_CHECK = """
import os, sys
from fightdesk.import_shortcuts import skip_pydantic_plugin_lookup

skip_pydantic_plugin_lookup()
from pydantic import BaseModel, Field, ValidationError

class Roll(BaseModel):
    faces: list[int] = Field(min_length=1)

assert Roll(faces=[7, 3]).faces == [7, 3]
try:
    Roll(faces=[])
except ValidationError:
    pass
else:
    raise AssertionError("validation stopped working")
print(os.environ["PYDANTIC_DISABLE_PLUGINS"], "importlib.metadata" in sys.modules)
"""


def test_with_plugins_off_pydantic_never_reads_package_metadata() -> None:
    done = run_python(PLUGIN_CHECK)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["__all__", "False"]


def test_a_plugin_choice_of_the_user_is_left_alone() -> None:
    done = run_python(PLUGIN_CHECK, PYDANTIC_DISABLE_PLUGINS="someone_elses_plugin")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["someone_elses_plugin", "True"]  # the real loader ran


def test_pydantic_asks_its_plugin_loader_for_get_plugins_only() -> None:
    """What the stand-in loader offers is all this pydantic imports from the real one;
    a pydantic outside the known versions gets no stand-in at all."""
    low, high = import_shortcuts.PYDANTIC_KNOWN
    version = tuple(int(p) for p in pydantic.VERSION.split(".")[:2])
    assert low <= version <= high, "a new pydantic: check its plugin loader, then the range"
    root = Path(pydantic.__file__).parent
    uses = set()
    for source in root.rglob("*.py"):
        if "v1" in source.relative_to(root).parts:
            continue
        text = source.read_text(encoding="utf-8")
        uses.update(re.findall(r"from \.?_loader import ([\w, ]+)", text))
        assert "plugin._loader" not in text.replace("from ._loader", ""), source
    assert {name.strip() for found in uses for name in found.split(",")} == {"get_plugins"}
