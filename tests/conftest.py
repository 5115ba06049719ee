"""Test set-up: Qt offscreen, every user directory in a temp dir, hypothesis untimed."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


def _install_drill_plugin() -> None:
    """Install the drill ruleset plugin (tests/drill_plugin, a distribution of its own)
    for this test run, as pip installs an editable package: its source folder and a
    ``.dist-info`` with its entry points on the path, for this process and the ones it
    starts. Skipped when pip installed it already. Before fightdesk's models load: their
    unions are made from every ruleset registered."""
    import sys
    import tomllib
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        distribution("fightdesk-drill")
        return
    except PackageNotFoundError:
        pass
    source = Path(__file__).resolve().parent / "drill_plugin"
    project = tomllib.loads((source / "pyproject.toml").read_text())["project"]
    where = Path(tempfile.mkdtemp(prefix="fightdesk-drill-plugin-"))
    atexit.register(shutil.rmtree, where, ignore_errors=True)
    info = where / f"fightdesk_drill-{project['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n")
    points = []
    for group, found in project["entry-points"].items():
        points.append(f"[{group}]")
        points.extend(f"{name} = {value}" for name, value in found.items())
    (info / "entry_points.txt").write_text("\n".join(points) + "\n")
    for folder in (str(source), str(where)):
        sys.path.append(folder)
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (os.environ.get("PYTHONPATH", ""), str(source), str(where)) if p)


_install_drill_plugin()

# Must be set before any QApplication exists (pytest-qt creates it lazily).
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
_RUNTIME = tempfile.mkdtemp(prefix="fightdesk-xdg-runtime-")
os.chmod(_RUNTIME, 0o700)
os.environ.setdefault("XDG_RUNTIME_DIR", _RUNTIME)

# Point every user directory at a throw-away folder before anything reads them.
_HOME = Path(tempfile.mkdtemp(prefix="fightdesk-test-home-"))
for _var, _sub in (
    ("XDG_CONFIG_HOME", "config"),
    ("XDG_DATA_HOME", "data"),
    ("XDG_CACHE_HOME", "cache"),
    ("XDG_STATE_HOME", "state"),
):
    os.environ[_var] = str(_HOME / _sub)

# Both folders belong to this test run only; leave nothing behind in /tmp.
atexit.register(shutil.rmtree, _RUNTIME, ignore_errors=True)
atexit.register(shutil.rmtree, _HOME, ignore_errors=True)

from hypothesis import settings  # noqa: E402

settings.register_profile("fightdesk", deadline=None, max_examples=60)
settings.load_profile("fightdesk")

RUN_BUNDLE_OPTION = "--run-bundle"
# The random-fight property tests (tests/engine/test_simulate_properties.py).
SIM_FIGHTS_OPTION = "--sim-fights"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--stress", action="store_true", default=False,
        help="the long reliability runs: 10,000 fuzzed files instead of a few hundred, "
        "and more SIGKILLs of the real window (docs/benchmarks.md)")
    parser.addoption(
        RUN_BUNDLE_OPTION, action="store_true",
        help="build the desktop bundle with packaging/build.py and check it (about 2-3 "
             "minutes, needs the package index); on by default when CI=true",
    )
    parser.addoption(
        "--update-golden", action="store_true", default=False,
        help="write the golden fights (tests/**/golden/*.txt) from the code as it is, "
             "instead of comparing with them; read the diff before committing "
             "(docs/testing.md \"Golden fights\")",
    )
    parser.addoption(
        SIM_FIGHTS_OPTION, type=int, default=None, metavar="N",
        help="random fights per ruleset in tests/engine/test_simulate_properties.py "
             "(default 150; docs/benchmarks.md has a larger run)",
    )


@pytest.fixture
def stress(request: pytest.FixtureRequest) -> bool:
    """True with ``--stress``: run the long version of a reliability test."""
    return bool(request.config.getoption("--stress"))


@pytest.fixture(autouse=True)
def user_dirs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Each test gets its own empty config, data, cache and state folders."""
    home = tmp_path_factory.mktemp("home")
    for var, sub in (
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_DATA_HOME", "data"),
        ("XDG_CACHE_HOME", "cache"),
        ("XDG_STATE_HOME", "state"),
    ):
        monkeypatch.setenv(var, str(home / sub))
    yield home


_QT_MODULES: dict[str, bool] = {}


def _module_uses_qt(module: object) -> bool:
    """Whether a test module imported anything of Qt or of fightdesk's window."""
    name = getattr(module, "__name__", "")
    if name not in _QT_MODULES:
        _QT_MODULES[name] = any(
            str(getattr(value, "__module__", None) or getattr(value, "__name__", "")).startswith(
                ("PySide6", "fightdesk.ui"))
            for value in vars(module).values())
    return _QT_MODULES[name]


@pytest.fixture(autouse=True)
def qt_application(request: pytest.FixtureRequest) -> None:
    """A test in a module that uses Qt runs with the application made (pytest-qt's qapp),
    whichever tests ran before it: Qt aborts the process when text is laid out with no
    application, and with the suite spread over workers (``pytest -n``) a worker's first
    Qt test may be one that does not ask for qapp itself."""
    module = getattr(request.node, "module", None)
    if module is not None and _module_uses_qt(module):
        request.getfixturevalue("qapp")


# --- the desktop bundle (tests/test_bundle.py) -----------------------------------------------



def bundle_build_wanted(config: pytest.Config) -> bool:
    """The bundle test runs in CI and on request; elsewhere it is skipped, and says so."""
    return bool(config.getoption(RUN_BUNDLE_OPTION)) or os.environ.get("CI") == "true"


def pytest_report_header(config: pytest.Config) -> str:
    if bundle_build_wanted(config):
        return "desktop bundle: built and checked (tests/test_bundle.py)"
    return (f"desktop bundle: NOT built; pass {RUN_BUNDLE_OPTION} (or set CI=true) to build "
            "and check it")



# The longest test starts first when the suite runs on several workers (``pytest -n``):
# the bundle's build waits on pip and PyInstaller for minutes, and started late it would
# leave the other workers idle at the end of the run.
LONGEST_FIRST = ("tests/test_bundle.py::test_linux_bundle_builds_starts_and_checks_every_demo",)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if hasattr(config, "workerinput"):  # an xdist worker; every worker sorts the same way
        items.sort(key=lambda item: item.nodeid not in LONGEST_FIRST)
