"""The layers of docs/ARCHITECTURE.md ("Layers"): engine, storage and report work on a
machine without Qt.

Each check runs in a fresh interpreter in which importing PySide6 or shiboken6 raises
ImportError (a blocker on ``sys.meta_path``), so a stray Qt import anywhere below these
packages, even an indirect one, fails the test.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

BLOCK_QT = textwrap.dedent(
    """
    import importlib, pkgutil, sys

    class NoQt:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in ("PySide6", "shiboken6"):
                raise ImportError(f"{name} is blocked: this layer must not import Qt")
            return None

    sys.meta_path.insert(0, NoQt())

    def import_tree(package_name):
        package = importlib.import_module(package_name)
        names = [package_name]
        for info in pkgutil.walk_packages(package.__path__, package_name + "."):
            importlib.import_module(info.name)
            names.append(info.name)
        return names
    """
)


def run_without_qt(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", BLOCK_QT + textwrap.dedent(code)],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )


def test_the_blocker_really_blocks_qt() -> None:
    done = run_without_qt(
        """
        try:
            import fightdesk.ui.main_window
        except ImportError as exc:
            print("blocked:", exc)
        """
    )
    assert done.returncode == 0, done.stderr
    assert "blocked: PySide6" in done.stdout


def test_engine_storage_and_report_import_without_qt() -> None:
    done = run_without_qt(
        """
        names = []
        for package in ("fightdesk.engine", "fightdesk.storage", "fightdesk.report",
                        "fightdesk.share"):
            names += import_tree(package)
        import fightdesk.paths, fightdesk.resources_path, fightdesk.cli
        for module in fightdesk.cli.command_modules():
            names.append(module.__name__)
        assert not [m for m in sys.modules if m.split(".")[0] in ("PySide6", "shiboken6")]
        print("\\n".join(names))
        """
    )
    assert done.returncode == 0, done.stderr
    imported = set(done.stdout.split())
    # The walk really went through the packages, rulesets included.
    assert {
        "fightdesk.engine.engine",
        "fightdesk.engine.model",
        "fightdesk.engine.rulesets.street_fighter",
        "fightdesk.storage.sessions",
        "fightdesk.storage.files",
        "fightdesk.report",
        "fightdesk.share.server",
    } <= imported


def test_a_fight_is_loaded_played_and_saved_without_qt(tmp_path: Path) -> None:
    """Not only imports: the engine and storage do their work with Qt unavailable."""
    done = run_without_qt(
        f"""
        from pathlib import Path
        from fightdesk.engine import commands as c
        from fightdesk.engine.engine import Engine
        from fightdesk.storage.sessions import demo_session, load_session, save_session
        from fightdesk.cli import main

        engine = Engine(demo_session())
        assert engine.apply(c.SetValue(fighter_id="kaede", field="status.health", value=3)).ok
        path = Path({str(tmp_path / "fight.json")!r})
        save_session(engine.session, path)
        assert load_session(path) == engine.session
        assert main(["check", str(path)]) == 0
        assert "PySide6" not in sys.modules
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "OK\n"
