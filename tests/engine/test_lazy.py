"""Modules loaded on first use (engine/lazy.py): nothing runs until an attribute is read."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from fightdesk.engine import lazy


@pytest.fixture
def probe_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A module that leaves a file behind when it runs."""
    marker = tmp_path / "ran"
    (tmp_path / "lazy_probe.py").write_text(
        f"from pathlib import Path\nPath({str(marker)!r}).write_text('yes')\nVALUE = 42\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "lazy_probe", raising=False)
    return marker


def test_a_lazy_module_runs_when_first_read(probe_module: Path) -> None:
    module = lazy.lazy_module("lazy_probe")
    assert not probe_module.exists()
    assert sys.modules["lazy_probe"] is module
    assert module.VALUE == 42
    assert probe_module.exists()
    assert lazy.lazy_module("lazy_probe") is module  # imported already: as it is


def test_load_waiting_runs_every_lazy_module_not_run_yet(probe_module: Path) -> None:
    lazy.lazy_module("lazy_probe")
    lazy.load_waiting()
    assert probe_module.exists()
    lazy.load_waiting()  # nothing left: no error


def test_a_missing_module_is_an_import_error() -> None:
    """Named in the message and on the error, as Python's own import does."""
    with pytest.raises(ImportError) as raised:
        lazy.lazy_module("fightdesk.engine.no_such_module")
    assert str(raised.value) == "no module named 'fightdesk.engine.no_such_module'"
    assert raised.value.name == "fightdesk.engine.no_such_module"


def test_a_lazy_submodule_is_an_attribute_of_its_package(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As after a plain import, ``package.inner.leaf`` reaches the lazy module through its
    parent package (the nearest one, not the top)."""
    inner = tmp_path / "lazy_pkg" / "inner"
    inner.mkdir(parents=True)
    (tmp_path / "lazy_pkg" / "__init__.py").write_text("")
    (inner / "__init__.py").write_text("")
    (inner / "leaf.py").write_text("VALUE = 7\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("lazy_pkg", "lazy_pkg.inner", "lazy_pkg.inner.leaf"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    import lazy_pkg.inner

    module = lazy.lazy_module("lazy_pkg.inner.leaf")
    assert lazy_pkg.inner.leaf is module
    assert not hasattr(lazy_pkg, "inner.leaf")
    assert module.VALUE == 7


FIRST_ACTION = """
import importlib.util, sys
from fightdesk.engine.engine import Engine
from fightdesk.storage.sessions import demo_session

engine = Engine(demo_session())
ruleset = engine.ruleset
lazy = [name for name in ("fightdesk.engine.commands",
                          "fightdesk.engine.rulesets.street_fighter.commands")
        if isinstance(sys.modules.get(name), importlib.util._LazyModule)]
assert len(lazy) == 2, lazy  # shown, and no command class made yet
command = ruleset.views.build_command("start-fight", "", {})
out = engine.apply(command)
assert out.ok, out.error
from fightdesk.engine.commands import SetValue
out = engine.apply(SetValue(fighter_id="kaede", field="status.health", value=7))
assert out.ok, out.error
assert engine.encounter.fighters["kaede"].status.health == 7
print("ok")
"""


def test_the_first_command_loads_the_command_classes_on_the_way() -> None:
    """In a fresh process the command modules wait; the first command built by the
    ruleset, and one imported by name, load them and apply as usual."""
    done = subprocess.run([sys.executable, "-c", FIRST_ACTION], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["ok"]
