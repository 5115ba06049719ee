"""Build the one-folder desktop bundle from a clean copy of the sources, then prove it works.

One run does all of this, so what is measured is what was built:

1. copies the sources (fightdesk/, resources/, packaging/, requirements/, pyproject.toml,
   setup.py, README.md) to a clean folder: no stale build/, egg-info or bytecode can leak in;
2. makes its own virtual environment there and installs fightdesk from that copy (with
   the runtime versions of requirements/ci-constraints.txt) and the build-only tools of
   requirements/bundle.txt: the bundle's build never depends on the caller's environment;
3. runs PyInstaller on packaging/fightdesk.spec into ``--dist`` (default dist/);
4. checks the bundle: the two programs are there, no build or test tool and no unused Qt
   module was bundled, and for every bundled demo fight (every ``demo*.json`` the bundle
   carries) ``fightdesk check`` says OK, ``fightdesk summary --all`` (Markdown and PDF)
   answers exactly as the installed app does, and the window (Qt offscreen) opens the
   demo and gets through its whole start-up;
5. prints the bundle's size and its start time (median, quit once the demo fight is
   shown) against the app installed in the same virtual environment;
6. with ``--archive``, packs the checked folder into one .tar.gz (.zip on Windows).

    python3 packaging/build.py [--dist DIR] [--work DIR] [--runs N] [--json FILE] [--archive]

Exits 0 when every check passed, 1 when one failed (each failure named on stderr), 2 on
bad arguments. Written for Linux, Windows and macOS; run on Linux only so far (docs/install.md
says what was tried where).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("fightdesk", "resources", "packaging", "requirements", "pyproject.toml", "setup.py",
           "README.md")
WINDOWS = sys.platform == "win32"
EXE = ".exe" if WINDOWS else ""
# fightdesk.app's probe (not imported: this script runs without fightdesk installed).
PROBE_ENV = "FIGHTDESK_STARTUP_PROBE"
PROBE_PREFIX = "fightdesk-probe"
# The stages of a start on a FILE (such a start has no picture to show before the load:
# "shown" is the loaded fight's paint, docs/startup.md).
STAGES = ("first-paint", "loaded", "shown", "ready", "settled")
# The Qt modules fightdesk imports (packaging/fightdesk.spec keeps only these).
QT_MODULES = {"QtCore", "QtGui", "QtWidgets", "QtPrintSupport"}
# Packages of the build and test tools; none may end up in the bundle.
TOOLS = ("PyInstaller", "PIL", "setuptools", "pkg_resources", "pip", "pytest", "_pytest",
         "hypothesis", "mypy", "ruff", "pytestqt", "altgraph", "build", "wheel")
TIMEOUT = 900


class BuildFailed(Exception):
    """A step or a check failed; the message says which and why."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist",
                        help="where the bundle goes (default dist/; it becomes DIST/fightdesk)")
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "bundle",
                        help="the source copy, venv and PyInstaller's work (default build/bundle)")
    parser.add_argument("--runs", type=int, default=7,
                        help="timed starts of each program (default 7; 0 skips the timing)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures here")
    parser.add_argument("--archive", action="store_true",
                        help="also pack the checked bundle into one file to hand out: "
                             "DIST/fightdesk-VERSION-SYSTEM-MACHINE.zip on Windows, .tar.gz elsewhere")
    args = parser.parse_args(argv)
    if args.runs < 0:
        parser.error("--runs must be 0 or more")
    try:
        figures = build_and_check(args.dist.resolve(), args.work.resolve(), args.runs)
        if args.archive:
            figures["archive"] = pack(args.dist.resolve(), str(figures["version"]))
    except BuildFailed as failure:
        print(f"build.py: FAILED: {failure}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("build.py: stopped", file=sys.stderr)
        return 130
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return 0


def build_and_check(dist: Path, work: Path, runs: int) -> dict[str, object]:
    figures: dict[str, object] = {"platform": f"{platform.system()} {platform.machine()}",
                                  "python": platform.python_version()}
    started = time.monotonic()
    source = copy_sources(work / "src")
    step("virtual environment")
    environment = work / "venv"
    tick = time.monotonic()
    python = make_venv(environment, source)
    figures["venv_s"] = round(time.monotonic() - tick, 1)
    step("PyInstaller")
    tick = time.monotonic()
    bundle = run_pyinstaller(python, source, dist, work)
    figures["pyinstaller_s"] = round(time.monotonic() - tick, 1)
    figures["build_s"] = round(time.monotonic() - started, 1)
    installed = scripts_dir(environment) / f"fightdesk{EXE}"

    step("checks")
    figures["size"] = bundle_size(bundle)
    figures["unresolved"] = unresolved_libraries(work / "pyinstaller.log", bundle)
    check_contents(bundle)
    cli = bundle / f"fightdesk{EXE}"
    gui = bundle / f"fightdesk-gui{EXE}"
    figures["version"] = same_answer([cli, "--version"], [installed, "--version"], work).strip()
    demos = bundled_demos(bundle, source)
    figures["demos"] = [demo.name for demo in demos]
    with tempfile.TemporaryDirectory(prefix="fightdesk-bundle-") as name:
        scratch = Path(name)
        for demo in demos:
            check_demo(cli, installed, demo, scratch)
        # The windowed program opens the first demo too (the one a desktop launcher starts).
        # On Windows it has no standard output to report its start-up on.
        if not WINDOWS:
            start(gui, demos[0], scratch, probe="1")
        if runs:
            step(f"start times ({runs} runs each)")
            figures["start"] = start_times(cli, installed, demos[0], scratch, runs)
    figures["total_s"] = round(time.monotonic() - started, 1)
    report(figures, bundle)
    return figures


def step(title: str) -> None:
    print(f"== {title}", flush=True)


def run(command: list[str | Path], *, cwd: Path, env: dict[str, str] | None = None,
        log: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run a build step; its output goes to ``log``, and its last 40 lines into the failure."""
    try:
        done = subprocess.run([str(c) for c in command], capture_output=True, text=True,
                              cwd=cwd, env=env, timeout=TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise BuildFailed(f"{command[0]} could not run: {exc}") from None
    if log is not None:
        log.write_text(done.stdout + done.stderr, encoding="utf-8")
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-40:])
        raise BuildFailed(f"{' '.join(map(str, command))} exited {done.returncode}:\n{tail}")
    return done


def copy_sources(target: Path) -> Path:
    """A clean copy of what the build reads (no bytecode, egg-info or build outputs)."""
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for name in SOURCES:
        item = ROOT / name
        if item.is_dir():
            shutil.copytree(item, target / name, ignore=ignore)
        elif item.is_file():
            shutil.copy2(item, target / name)
        else:
            raise BuildFailed(f"{item} is missing: run this from a complete checkout")
    return target


def scripts_dir(environment: Path) -> Path:
    return environment / ("Scripts" if WINDOWS else "bin")


def make_venv(environment: Path, source: Path) -> Path:
    """A fresh venv with fightdesk (installed from the copy, not editable) and the tools."""
    if environment.exists():
        shutil.rmtree(environment)
    venv.EnvBuilder(with_pip=True).create(environment)
    python = scripts_dir(environment) / f"python{EXE}"
    requirements = source / "requirements"
    run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         "-c", requirements / "ci-constraints.txt", "-r", requirements / "bundle.txt", source],
        cwd=environment.parent, log=environment.parent / "pip.log")
    return python


def run_pyinstaller(python: Path, source: Path, dist: Path, work: Path) -> Path:
    bundle = dist / "fightdesk"
    run([python, "-m", "PyInstaller", "--noconfirm", "--clean", "--log-level", "WARN",
         "--distpath", dist, "--workpath", work / "pyinstaller",
         source / "packaging" / "fightdesk.spec"],
        cwd=source, log=work / "pyinstaller.log")
    if not (bundle / f"fightdesk{EXE}").is_file():
        raise BuildFailed(f"PyInstaller made no {bundle / ('fightdesk' + EXE)}")
    return bundle


UNRESOLVED = re.compile(r"Library not found: could not resolve '([^']+)', dependency of '([^']+)'")


def unresolved_libraries(log: Path, bundle: Path) -> dict[str, list[str]]:
    """Libraries that bundled files load but the build machine lacks (so they are not in
    the bundle, and the GM's system must have them), with the bundled files that want them.
    Files left out of the bundle (the spec's trimming) do not count."""
    present = {path.name for path in bundle.rglob("*")}
    wanted: dict[str, set[str]] = {}
    for library, user in UNRESOLVED.findall(log.read_text(encoding="utf-8", errors="replace")):
        user_name = Path(user).name
        if user_name in present and library not in present:
            wanted.setdefault(library, set()).add(user_name)
    return {library: sorted(users) for library, users in sorted(wanted.items())}


def internal_dir(bundle: Path) -> Path:
    """Where PyInstaller 6 puts the libraries and data next to the programs."""
    return bundle / "_internal"


def bundle_size(bundle: Path) -> dict[str, float]:
    """Bytes on disk by part (links counted once, as du does), in MiB."""
    parts: dict[str, int] = {"qt": 0, "python": 0, "other": 0}
    total = 0
    files = 0
    for folder, _, names in os.walk(bundle):
        for name in names:
            path = Path(folder, name)
            if path.is_symlink():
                continue
            size = path.stat().st_size
            total += size
            files += 1
            relative = path.relative_to(bundle).as_posix()
            if "PySide6/" in relative or "shiboken6/" in relative or "Qt6" in name:
                parts["qt"] += size
            elif "python3" in relative or name.startswith(("libpython", "python3")) \
                    or name == "base_library.zip":
                parts["python"] += size
            else:
                parts["other"] += size
    mib = 1024 * 1024
    return {"total_mib": round(total / mib, 1), "files": files,
            **{f"{key}_mib": round(value / mib, 1) for key, value in parts.items()}}


def check_contents(bundle: Path) -> None:
    """No build or test tool, no Qt module fightdesk does not import, and no link to a
    file that was left out, is in the bundle."""
    for program in ("fightdesk", "fightdesk-gui"):
        if not (bundle / f"{program}{EXE}").is_file():
            raise BuildFailed(f"{program}{EXE} is missing from {bundle}")
    inside = internal_dir(bundle)
    dangling = sorted(str(path.relative_to(bundle)) for path in bundle.rglob("*")
                      if path.is_symlink() and not path.exists())
    if dangling:
        raise BuildFailed(f"links to files the bundle does not have: {', '.join(dangling)}")
    stray = sorted(tool for tool in TOOLS if (inside / tool).exists())
    if stray:
        raise BuildFailed(f"build or test tools were bundled: {', '.join(stray)}")
    modules = {p.name.split(".")[0] for p in (inside / "PySide6").iterdir()
               if p.name.startswith("Qt") and p.suffix in (".so", ".pyd")}
    if modules != QT_MODULES:
        raise BuildFailed(f"the bundle's Qt modules are {sorted(modules)}, "
                          f"not fightdesk's {sorted(QT_MODULES)}")


def bundled_demos(bundle: Path, source: Path) -> list[Path]:
    """Every demo fight the bundle carries; each one in resources/ must be there."""
    carried = sorted((internal_dir(bundle) / "fightdesk" / "resources").glob("demo*.json"))
    expected = sorted(p.name for p in (source / "resources").glob("demo*.json"))
    if not expected:
        raise BuildFailed("resources/ holds no demo*.json: nothing to check the bundle with")
    if [p.name for p in carried] != expected:
        raise BuildFailed(f"the bundle carries the demos {[p.name for p in carried]}, "
                          f"resources/ has {expected}")
    return carried


def user_environment(home: Path, probe: str | None = None) -> dict[str, str]:
    """Qt offscreen and every user folder under ``home``: each start is a GM's first."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("XDG_", "PYTHON")) and k != PROBE_ENV}
    env["QT_QPA_PLATFORM"] = "offscreen"
    for var, sub in (("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"),
                     ("XDG_STATE_HOME", "state"), ("XDG_CACHE_HOME", "cache"),
                     ("XDG_RUNTIME_DIR", "runtime")):
        env[var] = str(home / sub)
    # macOS: platformdirs builds ~/Library/... from HOME. Windows: it asks the shell for the
    # known folders, so there the runs share the real user's folders.
    if sys.platform == "darwin":
        env["HOME"] = str(home)
    (home / "runtime").mkdir(mode=0o700, parents=True, exist_ok=True)
    if probe is not None:
        env[PROBE_ENV] = probe
    return env


def answer(command: list[str | Path], scratch: Path) -> tuple[int, str, str]:
    home = Path(tempfile.mkdtemp(prefix="home-", dir=scratch))
    try:
        done = subprocess.run([str(c) for c in command], capture_output=True, text=True,
                              env=user_environment(home), cwd=scratch, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise BuildFailed(f"{' '.join(map(str, command))} could not run: {exc}") from None
    finally:
        shutil.rmtree(home, ignore_errors=True)
    if "Traceback" in done.stderr:
        raise BuildFailed(f"{' '.join(map(str, command))} crashed:\n{done.stderr}")
    return done.returncode, done.stdout, done.stderr


def same_answer(bundled: list[str | Path], installed: list[str | Path], scratch: Path) -> str:
    """Run a command from the bundle and from the installed app: the answers must match."""
    got = answer(bundled, scratch)
    want = answer(installed, scratch)
    if got != want:
        raise BuildFailed(
            f"the bundle answers {' '.join(map(str, bundled[1:]))} differently from the installed "
            f"app:\n  bundle: exit {got[0]}, stdout {got[1][:400]!r}, stderr {got[2][:400]!r}"
            f"\n  installed: exit {want[0]}, stdout {want[1][:400]!r}, stderr {want[2][:400]!r}")
    return got[1]


def check_demo(cli: Path, installed: Path, demo: Path, scratch: Path) -> None:
    code, out, err = answer([cli, "check", demo], scratch)
    if (code, out) != (0, "OK\n"):
        raise BuildFailed(f"fightdesk check {demo.name} from the bundle: exit {code}, {out}{err}")
    same_answer([cli, "summary", demo, "--all", "--format", "md"],
                [installed, "summary", demo, "--all", "--format", "md"], scratch)
    # The PDF goes through Qt's text layout and PDF writer: the bundle must carry them. Both
    # write the same path (it is in what they print); the bundle's file is moved aside first.
    pdf = scratch / f"{demo.stem}-summary.pdf"
    bundle_pdf = scratch / f"{demo.stem}-summary-bundle.pdf"
    got = answer([cli, "summary", demo, "--all", "--format", "pdf", "-o", pdf], scratch)
    if pdf.exists():
        pdf.replace(bundle_pdf)
    want = answer([installed, "summary", demo, "--all", "--format", "pdf", "-o", pdf], scratch)
    if got != want or bundle_pdf.exists() != pdf.exists():
        raise BuildFailed(f"the bundle's PDF summary of {demo.name} differs from the installed "
                          f"app's:\n  bundle: {got}\n  installed: {want}")
    if bundle_pdf.exists() and not bundle_pdf.read_bytes().startswith(b"%PDF"):
        raise BuildFailed(f"the bundle's PDF summary of {demo.name} is not a PDF")
    times = start(cli, demo, scratch, probe="1")
    print(f"   {demo.name}: check OK, summary as installed, window ready "
          f"in {times['ready'] * 1000:.0f} ms", flush=True)


def start(program: Path, demo: Path, scratch: Path, probe: str) -> dict[str, float]:
    """Start the window on ``demo`` with the start-up probe; seconds to each stage."""
    home = Path(tempfile.mkdtemp(prefix="home-", dir=scratch))
    command = [str(program), str(demo)]
    try:
        begin = time.monotonic()
        done = subprocess.run(command, capture_output=True, text=True,
                              env=user_environment(home, probe), cwd=scratch, timeout=120)
        end = time.monotonic()
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise BuildFailed(f"{program.name} {demo.name} could not run: {exc}") from None
    finally:
        shutil.rmtree(home, ignore_errors=True)
    marks = {}
    for line in done.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == PROBE_PREFIX:
            marks[parts[1]] = float(parts[2]) - begin
    wanted = STAGES if probe == "1" else STAGES[:STAGES.index(probe) + 1]
    if done.returncode != 0 or tuple(marks) != wanted:
        raise BuildFailed(f"{program.name} {demo.name} did not start (exit {done.returncode}, "
                          f"stages {list(marks)}):\n{done.stderr[-2000:]}")
    # On Linux and macOS the marks share the parent's monotonic clock; "total" always does.
    marks["total"] = end - begin
    return marks


def start_times(cli: Path, installed: Path, demo: Path, scratch: Path,
                runs: int) -> dict[str, float]:
    """Median whole-process time (launch, the demo shown, quit) of each, alternating so a
    busy machine slows both alike; after one warm-up start of each."""
    start(cli, demo, scratch, "ready")
    start(installed, demo, scratch, "ready")
    bundled: list[float] = []
    pip_installed: list[float] = []
    for _ in range(runs):
        bundled.append(start(cli, demo, scratch, "ready")["total"])
        pip_installed.append(start(installed, demo, scratch, "ready")["total"])
    median_bundle = statistics.median(bundled)
    median_installed = statistics.median(pip_installed)
    return {"runs": runs, "bundle_ms": round(median_bundle * 1000),
            "installed_ms": round(median_installed * 1000),
            "ratio": round(median_bundle / median_installed, 2)}


def pack(dist: Path, version: str) -> dict[str, object]:
    """One file holding the folder ``fightdesk/``: what a GM downloads and unpacks."""
    name = f"fightdesk-{version.split()[-1]}-{platform.system()}-{platform.machine()}".lower()
    kind = "zip" if WINDOWS else "gztar"
    tick = time.monotonic()
    archive = Path(shutil.make_archive(str(dist / name), kind, root_dir=dist, base_dir="fightdesk"))
    size = round(archive.stat().st_size / (1024 * 1024), 1)
    print(f"  archive: {archive} ({size} MiB, packed in {time.monotonic() - tick:.1f} s)")
    return {"path": str(archive), "mib": size}


def report(figures: dict[str, object], bundle: Path) -> None:
    size = figures["size"]
    assert isinstance(size, dict)
    print(f"bundle: {bundle}")
    print(f"  {figures['version']}, {figures['platform']}, Python {figures['python']}")
    print(f"  size: {size['total_mib']} MiB in {size['files']} files (Qt {size['qt_mib']} MiB, "
          f"Python {size['python_mib']} MiB, other {size['other_mib']} MiB)")
    print(f"  build: {figures['build_s']} s (venv and installs {figures['venv_s']} s, "
          f"PyInstaller {figures['pyinstaller_s']} s)")
    print(f"  demos checked: {', '.join(map(str, figures['demos']))}")  # type: ignore[call-overload]
    unresolved = figures.get("unresolved")
    if isinstance(unresolved, dict) and unresolved:
        print("  not on the build machine, so not bundled (the GM's system must have them; "
              "install them here and rebuild to bundle them):")
        for library, users in unresolved.items():
            print(f"    {library} (for {', '.join(users)})")
    started = figures.get("start")
    if isinstance(started, dict):
        print(f"  start (launch, demo shown, quit; median of {started['runs']}): bundle "
              f"{started['bundle_ms']} ms, installed app {started['installed_ms']} ms, "
              f"ratio {started['ratio']}x")
    print(f"  whole run: {figures['total_s']} s")


if __name__ == "__main__":
    sys.exit(main())
