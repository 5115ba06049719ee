"""The fight's picture (storage/picture.py, engine/views.py): what a start-up paints before
the rules load. It must show the fight exactly as the live window would, read back from
its JSON at any moment of any ruleset's fight, and never be shown once the fight it
depicts could have changed, is open elsewhere, or comes from a file it did not write."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from fightdesk import __version__
from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Session
from fightdesk.engine.ruleset import get_ruleset
from fightdesk.engine.views import NotAPicture, picture_from_plain, picture_of, to_plain
from fightdesk.resources_path import DEMO_FILE, DEMO_PICTURE, resource_path
from fightdesk.storage.autosave import Autosave
from fightdesk.storage.autosave_folder import FightLock
from fightdesk.storage.library import new_fighter
from fightdesk.storage.picture import PICTURE_FILE, demo_picture, reopen_picture
from fightdesk.storage.sessions import demo_session
from tests.golden import RESOURCES, next_command

DEMOS = ("demo_fight.json", "demo_d100.json", "demo_roll-under.json", "demo_ashes.json")


def test_the_bundled_demo_picture_is_the_live_demo(tmp_path: Path) -> None:
    """After a change to the demo or to what a card, the timeline or the round bar shows,
    make it again: ``python -m fightdesk.storage.picture``."""
    engine = Engine(demo_session())
    live = picture_of(engine, f"{engine.encounter.name} (not saved)", False)
    shipped = demo_picture(tmp_path, resource_path(DEMO_FILE), resource_path(*DEMO_PICTURE))
    assert shipped == live


def test_the_demo_picture_is_only_for_a_first_start_on_that_very_demo(tmp_path: Path) -> None:
    demo, picture = resource_path(DEMO_FILE), resource_path(*DEMO_PICTURE)
    assert demo_picture(tmp_path, demo, picture) is not None
    (tmp_path / "state.json").write_text("{}")  # a fight was autosaved before
    assert demo_picture(tmp_path, demo, picture) is None
    other = tmp_path / "other"
    other.mkdir()
    changed = other / DEMO_FILE
    changed.write_bytes(demo.read_bytes().replace(b"Kaede", b"Kaeda"))
    assert demo_picture(other, changed, picture) is None  # made from another demo


@pytest.mark.parametrize("demo", DEMOS)
def test_a_picture_reads_back_at_every_step_of_a_played_fight(demo: str) -> None:
    session = Session.model_validate_json((RESOURCES / demo).read_text(encoding="utf-8"))
    session.encounter.dice_seed = 5
    engine = Engine(session)
    ruleset = get_ruleset(engine.encounter.ruleset)
    rng = random.Random(5)
    seen_states: set[str] = set()
    for step in range(60):
        picture = picture_of(engine, "fight.json", step % 2 == 0)
        text = json.dumps(to_plain(picture))
        assert picture_from_plain(json.loads(text)) == picture, f"step {step}"
        seen_states.update(chip.state for lane in picture.timeline.lanes for chip in lane.chips)
        if next_command(engine, ruleset, rng, "random", step, []) is None:
            break
    assert len(seen_states) >= 2  # the fight went somewhere: chips changed state


def _played(root: Path, steps: int = 6) -> tuple[Autosave, Engine]:
    engine = Engine(demo_session())
    autosave = Autosave(root)
    autosave.attach(engine, None)
    rng = random.Random(2)
    for _ in range(steps):
        command = engine.ruleset.autopilot.next_command(engine.encounter, rng)
        assert command is not None and engine.apply(command).ok
    return autosave, engine


def test_a_normal_quit_keeps_the_picture_the_next_start_shows(tmp_path: Path) -> None:
    autosave, engine = _played(tmp_path)
    expected = picture_of(engine, f"{engine.encounter.name} (not saved)", True)
    autosave.mark_clean_exit()
    assert reopen_picture(tmp_path) == expected
    assert expected.state != "Before the fight"  # the fight as it was, not as it began
    # ...and that start shows the very fight autosave brings back.
    info = Autosave(tmp_path).recoverable()
    assert info is not None and info.clean_exit and info.fight_name == engine.encounter.name


def test_a_saved_fight_s_picture_is_titled_by_its_file(tmp_path: Path) -> None:
    autosave, engine = _played(tmp_path)
    path = tmp_path / "harbour.json"
    from fightdesk.storage.sessions import save_session

    save_session(engine.session, path)
    autosave.mark_saved(path)
    autosave.mark_clean_exit()
    picture = reopen_picture(tmp_path)
    assert picture is not None and picture.title == "harbour.json" and not picture.unsaved


def _quit_with_picture(root: Path) -> Path:
    autosave, _ = _played(root)
    autosave.mark_clean_exit()
    assert reopen_picture(root) is not None
    (folder,) = [p for p in root.iterdir() if p.is_dir()]
    return folder


def test_no_picture_after_a_crash(tmp_path: Path) -> None:
    autosave, _ = _played(tmp_path)
    autosave.write_attached()  # what was on disk when the app died: no clean exit
    assert reopen_picture(tmp_path) is None


def test_no_picture_once_the_fight_changed_after_it(tmp_path: Path) -> None:
    folder = _quit_with_picture(tmp_path)
    (journal,) = folder.glob("journal-*.jsonl")
    with journal.open("a") as file:
        file.write("\n")  # one more record, as a later start would have written
    assert reopen_picture(tmp_path) is None


def test_no_picture_once_another_start_wrote_the_state(tmp_path: Path) -> None:
    _quit_with_picture(tmp_path)
    state = tmp_path / "state.json"
    data = json.loads(state.read_text())
    state.write_text(json.dumps(data, indent=2))  # same meaning, written again
    assert reopen_picture(tmp_path) is None


def test_no_picture_from_another_version_of_the_app(tmp_path: Path) -> None:
    folder = _quit_with_picture(tmp_path)
    data = json.loads((folder / PICTURE_FILE).read_text())
    assert data["app"] == __version__
    data["app"] = "0.0.1"
    (folder / PICTURE_FILE).write_text(json.dumps(data))
    assert reopen_picture(tmp_path) is None


def test_no_picture_of_a_fight_open_in_another_window(tmp_path: Path) -> None:
    folder = _quit_with_picture(tmp_path)
    other_window = FightLock()
    assert other_window.take(folder)
    try:
        assert reopen_picture(tmp_path) is None
    finally:
        other_window.release()
    assert reopen_picture(tmp_path) is not None


@pytest.mark.parametrize("damage", [
    "not json at all",
    '{"version": 1}',
    "[1, 2, 3]",
])
def test_no_picture_from_a_damaged_file(tmp_path: Path, damage: str) -> None:
    folder = _quit_with_picture(tmp_path)
    (folder / PICTURE_FILE).write_text(damage)
    assert reopen_picture(tmp_path) is None


@pytest.mark.parametrize(("where", "value", "problem"), [
    (("cards", 0, "health"), "10", "picture.cards[0].health: expected a whole number"),
    (("cards", 0, "health"), True, "picture.cards[0].health: expected a whole number"),
    (("cards", 0, "title"), None, "picture.cards[0].title: expected str"),
    (("timeline", "lanes", 0, "chips", 0, "state"), "on fire", "not one of"),
    (("timeline", "current_column"), "6", "expected a whole number"),
    (("cards",), {"0": {}}, "picture.cards: expected a list"),
    (("card_roles", 0), ["act"], "picture.card_roles[0]: expected 2 items"),
])
def test_a_picture_with_a_wrong_field_is_refused_naming_it(
        tmp_path: Path, where: tuple[str | int, ...], value: object, problem: str) -> None:
    _, engine = _played(tmp_path)
    data = to_plain(picture_of(engine, "x", False))
    node = data
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = value
    with pytest.raises(NotAPicture, match=problem.replace("[", r"\[").replace("]", r"\]")):
        picture_from_plain(data)


def test_a_missing_field_is_refused_and_a_defaulted_one_taken(tmp_path: Path) -> None:
    _, engine = _played(tmp_path)
    data = to_plain(picture_of(engine, "x", False))
    del data["cards"][0]["hidden"]  # has a default: read as False
    assert picture_from_plain(data).cards[0].hidden is False
    del data["state"]
    with pytest.raises(NotAPicture, match="picture: state is missing"):
        picture_from_plain(data)


def test_a_start_reads_a_picture_without_pydantic(tmp_path: Path) -> None:
    """The point of the picture: it is painted before pydantic and the models load."""
    _quit_with_picture(tmp_path)
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from fightdesk.resources_path import DEMO_FILE, DEMO_PICTURE, resource_path\n"
        "from fightdesk.storage.picture import demo_picture, reopen_picture\n"
        f"root = Path({str(tmp_path)!r})\n"
        "assert reopen_picture(root) is not None\n"
        "assert demo_picture(root / 'none', resource_path(DEMO_FILE), resource_path(*DEMO_PICTURE))\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pydantic'))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_quit_whose_picture_cannot_be_made_still_quits_cleanly(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    autosave, engine = _played(tmp_path)

    def broken(enc: object) -> object:
        raise KeyError("a view the ruleset cannot make")

    monkeypatch.setattr(engine.ruleset.views, "timeline", broken)
    autosave.mark_clean_exit()
    assert reopen_picture(tmp_path) is None
    info = Autosave(tmp_path).recoverable()
    assert info is not None and info.clean_exit


def test_quick_add_then_quit_pictures_the_new_fighter(tmp_path: Path) -> None:
    autosave, engine = _played(tmp_path, steps=0)
    guard = new_fighter(engine.encounter.ruleset, "Harbour Guard").model_copy(update={"side": "enemy"})
    outcome = engine.apply(c.AddFighters(fighter=guard.model_dump(mode="json")))
    assert outcome.ok, outcome.error
    autosave.mark_clean_exit()
    picture = reopen_picture(tmp_path)
    assert picture is not None and "Harbour Guard" in [card.title for card in picture.cards]
