"""A plain (non-editable) install works: build the wheel, install it into a fresh virtual
environment, and load the demo fights and run ``fightdesk`` from there; the sdist carries
every source a wheel is built from (resources/ included).

Offline and fast: the wheel is built without build isolation (setuptools comes with the
``test`` extra) and installed without dependencies; the new environment borrows this
one's site-packages for pydantic, PySide6 and platformdirs through a ``.pth`` file. A
plain path in a ``.pth`` file does not run the ``.pth`` files inside it, so this
environment's editable install of fightdesk cannot leak into the test.
"""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import sysconfig
import tarfile
import textwrap
import zipfile
from pathlib import Path

import pytest

import fightdesk

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("fightdesk", "resources", "pyproject.toml", "setup.py", "README.md")

pytestmark = pytest.mark.slow


def _run(*args: str | Path, cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, timeout=300, cwd=cwd, env=env
    )
    assert done.returncode == 0, f"{args}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def _scripts(venv: Path) -> Path:
    return venv / ("Scripts" if sys.platform == "win32" else "bin")


def _clean_copy(work: Path) -> Path:
    """The sources a build reads, without bytecode, egg-info or build outputs."""
    source = work / "src"
    source.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for name in SOURCES:
        item = ROOT / name
        if item.is_dir():
            shutil.copytree(item, source / name, ignore=ignore)
        else:
            shutil.copy2(item, source / name)
    return source


def _build_wheel(source: Path, work: Path) -> Path:
    dist = work / "dist"
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
         "--wheel-dir", dist, source, cwd=work)
    (built,) = dist.glob("fightdesk-*.whl")
    return built


def _resource_files() -> list[Path]:
    """Every file of resources/, relative to it."""
    return [
        p.relative_to(ROOT / "resources") for p in (ROOT / "resources").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    ]


def _demos() -> list[str]:
    """The bundled demo fights: one per ruleset, found by name, never listed by hand."""
    return sorted(p.name for p in (ROOT / "resources").glob("demo*.json"))


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel, built from a clean copy of the sources (no stale build/ folder)."""
    work = tmp_path_factory.mktemp("wheel")
    return _build_wheel(_clean_copy(work), work)


@pytest.fixture(scope="module")
def sdist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The source distribution, built from a clean copy (offline, no build isolation)."""
    work = tmp_path_factory.mktemp("sdist")
    source = _clean_copy(work)
    _run(sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir", work / "dist",
         source, cwd=work)
    (built,) = (work / "dist").glob("fightdesk-*.tar.gz")
    return built


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh environment with only the wheel installed (dependencies borrowed)."""
    venv = tmp_path_factory.mktemp("venv") / "env"
    _run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=venv.parent)
    python = _scripts(venv) / "python"
    purelib = _run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))",
                   cwd=venv.parent).strip()
    ours = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib"), *site.getsitepackages()}
    Path(purelib, "borrowed-deps.pth").write_text("\n".join(sorted(ours)) + "\n", encoding="utf-8")
    _run(sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index",
         "--no-compile", wheel, cwd=venv.parent)
    return venv


def _clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["QT_QPA_PLATFORM"] = "offscreen"
    return env


def test_wheel_holds_every_package_and_resource(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    packages = [p.parent.relative_to(ROOT) for p in (ROOT / "fightdesk").rglob("__init__.py")]
    for package in packages:
        assert f"{package.as_posix()}/__init__.py" in names, f"{package} is not in the wheel"
    resources = _resource_files()
    assert Path("demo_fight.json") in resources
    for item in resources:
        assert f"fightdesk/resources/{item.as_posix()}" in names, f"resources/{item} is not in the wheel"
    assert not any(n.startswith(("resources/", "tests/")) for n in names)
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "fightdesk = fightdesk.cli:main" in text
    assert "[gui_scripts]\nfightdesk-gui = fightdesk.app:main" in text


def test_installed_wheel_finds_the_demo_fight(venv: Path, tmp_path: Path) -> None:
    code = textwrap.dedent(
        """
        import json, fightdesk
        from fightdesk.resources_path import resource_dir
        from fightdesk.storage.sessions import demo_session
        session = demo_session()
        print(json.dumps({"package": fightdesk.__file__, "resources": str(resource_dir()),
                          "fighters": sorted(session.encounter.fighters)}))
        """
    )
    found = json.loads(_run(_scripts(venv) / "python", "-c", code, cwd=tmp_path, env=_clean_env()))
    installed = venv.resolve()
    assert Path(found["package"]).resolve().is_relative_to(installed)
    assert Path(found["resources"]).resolve().is_relative_to(installed)
    demo = json.loads((ROOT / "resources" / "demo_fight.json").read_text(encoding="utf-8"))
    assert found["fighters"] == sorted(demo["encounter"]["fighters"])


def test_installed_console_script_runs(venv: Path, tmp_path: Path) -> None:
    script = _scripts(venv) / "fightdesk"
    out = _run(script, "--version", cwd=tmp_path, env=_clean_env())
    assert out == f"fightdesk {fightdesk.__version__}\n"
    demo = _run(_scripts(venv) / "python", "-c",
                "from fightdesk.resources_path import resource_path; print(resource_path('demo_fight.json'))",
                cwd=tmp_path, env=_clean_env()).strip()
    assert _run(script, "check", demo, cwd=tmp_path, env=_clean_env()) == "OK\n"
    assert (_scripts(venv) / "fightdesk-gui").exists()


def test_installed_wheel_checks_every_bundled_demo(venv: Path, tmp_path: Path) -> None:
    found = _run(_scripts(venv) / "python", "-c",
                 "from fightdesk.resources_path import resource_dir\n"
                 "for p in sorted(resource_dir().glob('demo*.json')): print(p)",
                 cwd=tmp_path, env=_clean_env()).splitlines()
    assert [Path(p).name for p in found] == _demos() and found
    for demo in found:
        assert Path(demo).resolve().is_relative_to(venv.resolve())
        out = _run(_scripts(venv) / "fightdesk", "check", demo, cwd=tmp_path, env=_clean_env())
        assert out == "OK\n", f"fightdesk check {demo}: {out}"


def test_installed_wheel_shows_the_demo_s_picture_on_a_first_start(venv: Path, tmp_path: Path) -> None:
    """The installed demo's picture is there and made from the installed demo (without it
    a first start only waits for the rules before showing the fight)."""
    out = _run(_scripts(venv) / "python", "-c",
               "from pathlib import Path\n"
               "from fightdesk.resources_path import DEMO_FILE, DEMO_PICTURE, resource_path\n"
               "from fightdesk.storage.picture import demo_picture\n"
               "picture = demo_picture(Path('no-autosave-yet'), resource_path(DEMO_FILE),\n"
               "                       resource_path(*DEMO_PICTURE))\n"
               "print(picture.title if picture else None)",
               cwd=tmp_path, env=_clean_env())
    assert out == "Rooftop duel at the harbour (not saved)\n"


def test_sdist_carries_every_resource(sdist: Path) -> None:
    with tarfile.open(sdist) as archive:
        names = set(archive.getnames())
    top = sdist.name.removesuffix(".tar.gz")
    for item in _resource_files():
        assert f"{top}/resources/{item.as_posix()}" in names, f"resources/{item} is not in the sdist"
    for name in ("pyproject.toml", "setup.py", "README.md", "fightdesk/__init__.py"):
        assert f"{top}/{name}" in names, f"{name} is not in the sdist"


def test_wheel_built_from_the_sdist_holds_every_resource(sdist: Path, tmp_path: Path) -> None:
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp_path / "unpacked", filter="data")
    (source,) = (tmp_path / "unpacked").iterdir()
    names = set(zipfile.ZipFile(_build_wheel(source, tmp_path)).namelist())
    for item in _resource_files():
        assert f"fightdesk/resources/{item.as_posix()}" in names, (
            f"a wheel built from the sdist lacks resources/{item}")
