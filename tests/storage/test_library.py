"""The campaign fighter library: files, search, import/export, bad input, undo, write-back."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Encounter, Fighter, Session
from fightdesk.storage import files
from fightdesk.storage.library import (
    FIGHTER_MIME,
    Campaign,
    CampaignNotice,
    FighterQuery,
    Library,
    LibraryError,
    LibraryProblem,
    add_command,
    commands_from_drag,
    drag_payload,
    fighter_problems,
    new_fighter,
    plan_write_back,
    sample_folder,
)


def fighter(name: str, *, side: str = "enemy", tags: list[str] | None = None,
            health: int = 10, **sheet: Any) -> Fighter:
    f = new_fighter("street-fighter", name)
    data = f.model_dump(mode="json")
    data.update(id="new", side=side, tags=tags or [])
    data["sheet"].update(health=health, **sheet)
    data["status"]["health"] = health
    return Fighter.model_validate(data)


@pytest.fixture
def library(tmp_path: Path) -> Library:
    return Library(tmp_path / "campaigns")


@pytest.fixture
def campaign(library: Library) -> Campaign:
    library.create("Harbour")
    c = library.open("Harbour")
    c.add(fighter("Iron Bear", side="pc", tags=["pc", "wrestler"], strength=4))
    c.add(fighter("Dock Thug", tags=["mook"]))
    c.add(fighter("Lantern", tags=["boss"]))
    return c


def on_disk(c: Campaign) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(c.path.read_text("utf-8"))["fighters"]
    return data


# --- files -----------------------------------------------------------------------------


def test_round_trip_every_edit_is_saved(library: Library, campaign: Campaign) -> None:
    assert [f["name"] for f in on_disk(campaign)] == ["Iron Bear", "Dock Thug", "Lantern"]
    again = Campaign.load(campaign.path)
    assert again.fighters == campaign.fighters
    assert [f.id for f in again.fighters] == ["iron-bear", "dock-thug", "lantern"]
    data = json.loads(campaign.path.read_text("utf-8"))
    assert data["fightdesk"] == "campaign" and data["schema_version"] == 1
    assert not campaign.dirty and campaign.save_problem is None


def test_several_campaigns_one_open_at_a_time(library: Library, campaign: Campaign) -> None:
    library.create("Second city")
    other = library.open("Second city")
    assert library.current is other and len(other) == 0
    assert library.campaigns() == ["Harbour", "Second city"]
    # the first campaign was told it is closed and kept its fighters on disk
    assert len(Campaign.load(library.folder / "Harbour.json")) == 3
    with pytest.raises(LibraryError, match="already exists"):
        library.create("harbour" if os.name == "nt" else "Harbour")
    with pytest.raises(LibraryError, match="cannot start with"):
        library.create("../escape")


def test_rename_and_delete_campaign(library: Library, campaign: Campaign) -> None:
    assert library.rename("Harbour", "Harbour arc") == "Harbour arc"
    assert campaign.path.name == "Harbour arc.json" and library.current is campaign
    assert library.last_open() == "Harbour arc"
    campaign.add(fighter("Late Arrival"))
    assert len(Campaign.load(library.folder / "Harbour arc.json")) == 4
    gone = library.delete("Harbour arc")
    assert library.campaigns() == [] and library.current is None
    # deleting moves the file aside; nothing the GM had is destroyed
    assert gone.parent.name == ".deleted" and len(Campaign.load(gone)) == 4


def test_first_run_copies_the_sample_once(library: Library) -> None:
    copied = library.first_run()
    assert copied == ["Harbour Nights", "Starter Fighters"]
    sample = library.open("Harbour Nights")
    assert len(sample) >= 4 and {"pc", "mook", "boss"} <= set(sample.tags())
    assert all(f.ruleset == "street-fighter" for f in sample.fighters)
    library.delete("Harbour Nights")
    assert library.first_run() == []  # not again: the GM deleted it on purpose
    assert (sample_folder() / "Harbour Nights.json").is_file()


# --- search ------------------------------------------------------------------------------


def test_search_by_name_ruleset_side_and_tag(campaign: Campaign) -> None:
    def names(**q: Any) -> list[str]:
        return [f.name for f in campaign.search(FighterQuery(**q))]

    assert names(text="bear") == ["Iron Bear"]
    assert names(text="  THUG ") == ["Dock Thug"]
    assert names(side="enemy") == ["Dock Thug", "Lantern"]
    assert names(tag="Mook") == ["Dock Thug"]
    assert names(ruleset="street-fighter") == ["Iron Bear", "Dock Thug", "Lantern"]
    assert names(ruleset="d100") == []
    assert names(side="pc", tag="boss") == []
    assert campaign.tags() == ["boss", "mook", "pc", "wrestler"]


# --- edits and their own undo history ----------------------------------------------------


def test_add_edit_duplicate_delete_with_undo_redo(campaign: Campaign) -> None:
    start = campaign.fighters
    bear = campaign.get("iron-bear")
    changed = bear.model_copy(update={"notes": "owes Lantern money"})
    campaign.edit("iron-bear", changed)
    copy = campaign.duplicate("iron-bear")
    assert copy.name == "Iron Bear (copy)" and copy.id == "iron-bear-copy"
    assert [f.name for f in campaign.fighters][:2] == ["Iron Bear", "Iron Bear (copy)"]
    assert campaign.duplicate("iron-bear").name == "Iron Bear (copy 2)"
    campaign.delete(["dock-thug", "lantern"])
    assert [f.id for f in campaign.fighters] == ["iron-bear", "iron-bear-copy-2", "iron-bear-copy"]
    assert campaign.undo_text() == "Delete 2 fighters"
    after = campaign.fighters
    for _ in range(4):
        assert campaign.undo()
    assert campaign.fighters == start and campaign.undo_text() == "Add Lantern"
    assert [f["name"] for f in on_disk(campaign)] == [f.name for f in start]
    for _ in range(4):
        assert campaign.redo()
    assert campaign.fighters == after and not campaign.can_redo()
    assert len(on_disk(campaign)) == 3


def test_a_new_edit_clears_redo(campaign: Campaign) -> None:
    campaign.delete(["lantern"])
    campaign.undo()
    assert campaign.redo_text() == "Delete Lantern"
    campaign.add(fighter("Newcomer"))
    assert not campaign.can_redo() and campaign.undo_text() == "Add Newcomer"


def test_edit_refuses_status_above_the_sheet(campaign: Campaign) -> None:
    bad = campaign.get("lantern").model_dump(mode="json")
    bad["status"]["health"] = 14
    with pytest.raises(LibraryError, match="current health 14 is above the sheet's 10"):
        campaign.edit("lantern", Fighter.model_validate(bad))
    assert campaign.get("lantern").status.health == 10 and not campaign.can_redo()


@pytest.mark.parametrize("ruleset", ["d100", "roll-under", "ashes"])
def test_health_above_its_maximum_is_refused_where_the_fields_differ(ruleset: str) -> None:
    """Hp is checked against Max hp, the field the ruleset pairs it with."""
    fighter = new_fighter(ruleset, "Over")
    assert fighter_problems(fighter) == []
    top = fighter.sheet.max_hp
    over = fighter.model_copy(update={"status": fighter.status.model_copy(update={"hp": top + 3})})
    assert fighter_problems(over) == [
        ("status.hp", f"current hp {top + 3} is above the sheet's max hp {top}")]


def test_listeners_hear_before_and_after_each_change(campaign: Campaign) -> None:
    heard: list[tuple[str, str | None]] = []

    def listen(n: CampaignNotice) -> None:
        heard.append((n.stage, n.change.kind if n.change else None))

    campaign.subscribe(listen)
    campaign.delete(["lantern"])
    assert heard == [("before", "remove"), ("after", "remove"), ("history", None),
                     ("saved", None), ("history", None)]


@given(st.lists(st.sampled_from(["add", "dup", "del", "edit", "undo", "redo"]), max_size=25))
def test_undo_everything_gives_back_the_start(tmp_path_factory: pytest.TempPathFactory,
                                              ops: list[str]) -> None:
    """Any sequence of edits, undos and redos: undoing all returns the starting library,
    and the file always holds exactly what is in memory."""
    folder = tmp_path_factory.mktemp("lib")
    c = Campaign(folder / "Prop.json", [fighter("Alpha").model_copy(update={"id": "alpha"})])
    start = c.fighters
    n = 0
    for op in ops:
        ids = [f.id for f in c.fighters]
        if op == "add":
            n += 1
            c.add(fighter(f"Extra {n}"))
        elif op == "dup" and ids:
            c.duplicate(ids[-1])
        elif op == "del" and ids:
            c.delete([ids[0]])
        elif op == "edit" and ids:
            c.edit(ids[0], c.get(ids[0]).model_copy(update={"notes": f"note {n}"}))
        elif op == "undo":
            c.undo()
        elif op == "redo":
            c.redo()
        if c.path.exists():
            assert Campaign.load(c.path).fighters == c.fighters
    while c.undo():
        pass
    assert c.fighters == start


# --- import / export -----------------------------------------------------------------------


def test_export_then_import_one_or_many(campaign: Campaign, library: Library,
                                        tmp_path: Path) -> None:
    many = tmp_path / "out" / "bosses.json"
    assert campaign.export(many, ["lantern", "iron-bear"]) == 2
    library.create("Other")
    other = library.open("Other")
    added = other.import_file(many)
    assert [f.name for f in added] == ["Lantern", "Iron Bear"]
    assert other.undo_text() == "Import 2 fighters from bosses.json"
    # importing again into a campaign that has them gives fresh ids, keeps both
    again = other.import_file(many)
    assert [f.id for f in again] == ["lantern-2", "iron-bear-2"]
    assert len(other) == 4
    # one bare fighter object, and a bare list, are accepted too
    single = tmp_path / "one.json"
    single.write_text(json.dumps(campaign.get("dock-thug").model_dump(mode="json")))
    assert [f.name for f in other.import_file(single)] == ["Dock Thug"]
    listed = tmp_path / "list.json"
    listed.write_text(json.dumps([campaign.get("lantern").model_dump(mode="json")]))
    assert len(other.import_file(listed)) == 1


def test_import_is_all_or_nothing_and_names_the_fighter_and_field(
        campaign: Campaign, tmp_path: Path) -> None:
    good = [f.model_dump(mode="json") for f in campaign.fighters]
    good[2]["name"] = "Second Lantern"
    good[2]["sheet"]["strength"] = 14
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"fightdesk": "fighters", "schema_version": 1, "fighters": good}))
    before = campaign.fighters
    disk = campaign.path.read_bytes()
    with pytest.raises(LibraryProblem) as info:
        campaign.import_file(bad)
    msg = str(info.value)
    assert msg.startswith(f"{bad}, fighter #3 \"Second Lantern\", field sheet.strength: ")
    assert "less than or equal to 10" in msg and "(got 14)" in msg
    assert campaign.fighters == before and campaign.path.read_bytes() == disk
    assert campaign.undo_text() == "Add Lantern"


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (lambda d: d["fighters"][1].pop("name"), 'fighter #2, field name: is missing'),
        (lambda d: d["fighters"][0].update(colour="red"),
         'fighter #1 "Iron Bear", field colour: is not a field fightdesk knows'),
        (lambda d: d["fighters"][1]["sheet"].update(ruleset="d20-ish"),
         "fighter #2 \"Dock Thug\", field sheet.ruleset: unknown ruleset id 'd20-ish'"),
        (lambda d: d["fighters"][2]["status"].update(willpower=9),
         'fighter #3 "Lantern", field status.willpower: current willpower 9 is above the '
         "sheet's 1"),
        (lambda d: d["fighters"][2].update(id="iron-bear"),
         'fighter #3 "Lantern", field id: id \'iron-bear\' is also used by fighter #1'),
        # Two maneuvers of one name in another case, and a blank name (the
        # load looks for these in one pass and words them only when it finds one).
        (lambda d: d["fighters"][0]["sheet"].update(
            maneuvers=[{"name": "Jab"}, {"name": "Kick"}, {"name": " jab"}]),
         'fighter #1 "Iron Bear", field sheet.maneuvers.2.name: maneuver \'jab\' is listed '
         "twice"),
        (lambda d: d["fighters"][1]["sheet"].update(maneuvers=[{"name": "Jab"}, {"name": "  "}]),
         'fighter #2 "Dock Thug", field sheet.maneuvers.1.name: a maneuver needs a name'),
        (lambda d: d["fighters"][0]["sheet"]["maneuvers"].append({"name": "Jab", "speed": 99}),
         'fighter #1 "Iron Bear", field sheet.maneuvers.0.speed: Input should be less than '
         "or equal to 10 (got 99)"),
        (lambda d: d.update(schema_version=7), "written by a newer fightdesk (schema version 7"),
        (lambda d: d.update(fighters={"a": 1}), "field fighters: must be a list of fighters"),
        (lambda d: d.update(fightdesk="fighters"), "field fightdesk: must be 'campaign'"),
    ],
)
def test_bad_campaign_file_names_file_fighter_field(
        library: Library, campaign: Campaign, mutate: Any, expected: str) -> None:
    data = json.loads(campaign.path.read_text("utf-8"))
    mutate(data)
    broken = library.folder / "Broken.json"
    text = json.dumps(data)
    broken.write_text(text)
    with pytest.raises(LibraryProblem) as info:
        library.open("Broken")
    assert str(info.value).startswith(str(broken))
    assert expected in str(info.value)
    # the open campaign stays open, the bad file is untouched and still listed
    assert library.current is campaign and broken.read_text() == text
    assert "Broken" in library.campaigns()


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"fightdesk": "campaign", "schema_ver', "not valid JSON (line 1, column"),
        ("", "the file is empty"),
        ("[1, 2]", "not a fightdesk campaign"),
        ('{"schema_version": 1, "encounter": {}, "start": {}, "log": []}',
         "this is a fight session file"),
        (b"\xff\xfe{}", "not a text file"),
    ],
)
def test_unreadable_campaign_files(library: Library, content: str | bytes,
                                   expected: str) -> None:
    library.folder.mkdir(parents=True)
    path = library.folder / "Odd.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    with pytest.raises(files.FileProblem) as info:
        library.open("Odd")
    assert str(path) in str(info.value) and expected in str(info.value)


def test_unreadable_file_permission(library: Library, campaign: Campaign,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: Path, limit: int) -> bytes:
        raise PermissionError(errno.EACCES, "Permission denied", str(self))

    monkeypatch.setattr(files, "read_regular_file", refuse)
    with pytest.raises(files.FileProblem, match="cannot read: permission denied"):
        library.open("Harbour", discard_unsaved=True)


# --- full disk, read-only folder ------------------------------------------------------------


@pytest.mark.parametrize(
    ("error", "words"),
    [
        (OSError(errno.ENOSPC, "No space left on device"), "the disk is full"),
        (PermissionError(errno.EACCES, "Permission denied"), "permission denied"),
    ],
)
def test_failed_save_keeps_last_good_file_and_the_edit(
        campaign: Campaign, library: Library, monkeypatch: pytest.MonkeyPatch,
        error: OSError, words: str) -> None:
    library.create("Elsewhere")
    good = campaign.path.read_bytes()
    heard: list[CampaignNotice] = []
    campaign.subscribe(heard.append)

    def no_space(fd: int) -> None:
        raise error

    monkeypatch.setattr(files.os, "fsync", no_space)
    campaign.delete(["lantern"])
    assert campaign.path.read_bytes() == good
    assert not [p for p in campaign.path.parent.iterdir() if p.name.endswith(".tmp")]
    problem = campaign.save_problem
    assert problem is not None and campaign.dirty
    assert str(problem) == f"{campaign.path}: could not save: {words}" + (
        " (is the folder read-only?)" if isinstance(error, PermissionError) else "")
    assert [n.problem for n in heard if n.stage == "saved"] == [problem]
    # the edit is kept in memory; switching campaigns would lose it, so it is refused
    assert [f.id for f in campaign.fighters] == ["iron-bear", "dock-thug"]
    with pytest.raises(LibraryError, match="could not be saved"):
        library.open("Elsewhere")
    assert library.current is campaign
    # once the disk has room again, the next save writes it
    monkeypatch.undo()
    campaign.save()
    assert [f["id"] for f in on_disk(campaign)] == ["iron-bear", "dock-thug"]
    assert not campaign.dirty


def test_create_on_a_full_disk_is_a_clear_message(library: Library,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", full)
    with pytest.raises(files.FileProblem, match="could not save: the disk is full"):
        library.create("Nowhere")
    assert library.campaigns() == []


# --- into the fight and back ---------------------------------------------------------------


def test_add_to_encounter_five_numbered_copies(campaign: Campaign) -> None:
    engine = Engine(Session.begin(Encounter()))
    thug = campaign.get("dock-thug")
    cmd = add_command(thug, count=5)
    assert cmd.count == 5 and cmd.fighter["source_id"] == "dock-thug"
    out = engine.apply(cmd)
    assert out.ok, out.error
    added = [engine.encounter.fighters[f] for f in engine.encounter.order[-5:]]
    assert [f.name for f in added] == [f"Dock Thug {i}" for i in range(1, 6)]
    assert len({f.group for f in added}) == 1 and added[0].group is not None
    assert all(f.source_id == "dock-thug" for f in added)


def test_drag_payload_round_trip(campaign: Campaign) -> None:
    assert FIGHTER_MIME == "application/x-fightdesk-fighters+json"
    data = drag_payload([campaign.get("lantern"), campaign.get("dock-thug")], count=3)
    cmds = commands_from_drag(data)
    assert [(c.fighter["name"], c.count) for c in cmds] == [("Lantern", 3), ("Dock Thug", 3)]
    with pytest.raises(LibraryError, match="not a library fighter"):
        commands_from_drag(b'{"fightdesk": "something else"}')
    with pytest.raises(LibraryError):
        commands_from_drag(b"\xff")


def test_carried_injuries_go_into_the_fight_but_not_fight_only_status(
        campaign: Campaign) -> None:
    bear = campaign.get("iron-bear").model_dump(mode="json")
    bear["status"].update(health=6, ep=3)  # EP never outlast a fight
    campaign.edit("iron-bear", Fighter.model_validate(bear))
    cmd = add_command(campaign.get("iron-bear"))
    assert cmd.fighter["status"]["health"] == 6 and cmd.fighter["status"]["ep"] == 0


def test_write_back_diff_then_one_undoable_step(campaign: Campaign) -> None:
    enc = Encounter(name="Pier 9")
    engine = Engine(Session.begin(enc))
    for fid, count in (("iron-bear", 1), ("lantern", 1), ("dock-thug", 3)):
        assert engine.apply(add_command(campaign.get(fid), count)).ok
    ids = {f.name: f.id for f in engine.encounter.fighters.values()}
    bear, lantern = ids["Iron Bear"], ids["Lantern"]
    from fightdesk.engine import commands as c

    for fid, field, value in ((bear, "status.health", 4), (bear, "status.willpower", 0),
                              (bear, "status.ep", 5), (lantern, "sheet.willpower", 3),
                              (ids["Dock Thug 2"], "status.health", 1)):
        assert engine.apply(c.SetValue(fighter_id=fid, field=field, value=value)).ok
    plan = plan_write_back(campaign, engine.encounter)
    rows = [(r.fighter_name, r.field, r.old, r.new) for r in plan.rows]
    assert rows == [
        ("Iron Bear", "status.health", 10, 4),
        ("Iron Bear", "status.willpower", 1, 0),
        ("Lantern", "sheet.willpower", 1, 3),
    ]
    assert plan.skipped == ("Dock Thug: 3 copies fought; copies are not written back",)
    campaign.write_back(plan)
    assert campaign.get("iron-bear").status.health == 4
    assert campaign.get("iron-bear").status.ep == 0
    assert campaign.get("lantern").sheet.willpower == 3
    assert campaign.undo_text() == "Write back 2 fighters"
    assert on_disk(campaign)[0]["status"]["health"] == 4
    campaign.undo()
    assert campaign.get("iron-bear").status.health == 10
    assert campaign.get("lantern").sheet.willpower == 1
    # a fighter deleted from the library since is skipped with a reason
    campaign.delete(["lantern"])
    again = plan_write_back(campaign, engine.encounter)
    assert "Lantern: its library fighter is not in campaign 'Harbour'" in again.skipped
    assert {r.fighter_name for r in again.rows} == {"Iron Bear"}


def test_write_back_with_nothing_changed_is_empty(campaign: Campaign) -> None:
    engine = Engine(Session.begin(Encounter()))
    engine.apply(add_command(campaign.get("lantern")))
    plan = plan_write_back(campaign, engine.encounter)
    assert plan.rows == () and plan.skipped == ()
    campaign.write_back(plan)
    assert campaign.undo_text() == "Add Lantern"


def test_loading_leaves_the_garbage_collector_as_it_was(library: Library,
                                                        campaign: Campaign) -> None:
    import gc

    assert gc.isenabled()
    assert len(Campaign.load(campaign.path)) == 3 and gc.isenabled()
    broken = library.folder / "Broken.json"
    broken.write_text(campaign.path.read_text("utf-8").replace('"strength": 4', '"strength": 40'))
    with pytest.raises(LibraryProblem, match=r'fighter #1 "Iron Bear", field sheet\.strength'):
        Campaign.load(broken)
    assert gc.isenabled()
    gc.disable()
    try:
        Campaign.load(campaign.path)
        assert not gc.isenabled()  # a caller's own pause is kept
    finally:
        gc.enable()
