"""A campaign's roll tables: saved with the campaign, read back the same, old files
unchanged, a bad table named by file, table and row."""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest

from fightdesk.engine.tables import default_tables, table_from_data
from fightdesk.storage import files
from fightdesk.storage.library import (
    Campaign,
    CampaignNotice,
    Library,
    LibraryError,
    LibraryProblem,
    new_fighter,
    sample_folder,
)


@pytest.fixture
def library(tmp_path: Path) -> Library:
    return Library(tmp_path / "campaigns")


@pytest.fixture
def campaign(library: Library) -> Campaign:
    library.create("Harbour")
    c = library.open("Harbour")
    c.add(new_fighter("street-fighter", "Iron Bear"))
    return c


def test_tables_round_trip_through_the_file(library: Library, campaign: Campaign) -> None:
    chart = default_tables("d100")["damage-chart"]
    death = default_tables("roll-under")["death-and-dismemberment"]
    campaign.save_table(chart)
    campaign.save_table(death)
    assert not campaign.dirty
    on_disk = json.loads(campaign.path.read_text(encoding="utf-8"))
    assert [t["id"] for t in on_disk["tables"]] == ["damage-chart", "death-and-dismemberment"]
    reopened = Campaign.load(campaign.path)
    assert reopened.tables == (chart, death)
    assert [f.name for f in reopened.fighters] == ["Iron Bear"]

    # Replacing keeps the place; the file before is kept as .bak.
    edited = chart.model_copy(deep=True)
    edited.rows[0].text = "Fumble"
    campaign.save_table(edited)
    assert Campaign.load(campaign.path).tables == (edited, death)
    assert campaign.table("damage-chart") == edited and campaign.table("nope") is None
    backup = json.loads(campaign.path.with_name("Harbour.json.bak").read_text("utf-8"))
    assert backup["tables"][0]["rows"][0]["text"] != "Fumble"

    campaign.remove_table("damage-chart")
    assert [t.id for t in Campaign.load(campaign.path).tables] == ["death-and-dismemberment"]
    with pytest.raises(LibraryError, match="has no roll table 'damage-chart'"):
        campaign.remove_table("damage-chart")


def test_the_campaign_keeps_its_own_copy(campaign: Campaign) -> None:
    chart = default_tables("d100")["damage-chart"]
    campaign.save_table(chart)
    chart.rows[0].text = "changed after saving"
    assert campaign.table("damage-chart") is not None
    assert campaign.table("damage-chart").rows[0].text != "changed after saving"  # type: ignore[union-attr]


def test_a_campaign_without_tables_is_written_as_before(campaign: Campaign) -> None:
    data = json.loads(campaign.path.read_text(encoding="utf-8"))
    assert set(data) == {"fightdesk", "schema_version", "fighters"}
    assert Campaign.load(campaign.path).tables == ()


def test_old_files_and_the_sample_load_unchanged() -> None:
    for path in sorted(sample_folder().glob("*.json")):
        assert "tables" not in json.loads(path.read_text(encoding="utf-8"))
        loaded = Campaign.load(path)
        assert loaded.tables == () and len(loaded) > 0


def test_a_bad_table_names_file_table_and_row(campaign: Campaign) -> None:
    data = json.loads(campaign.path.read_text(encoding="utf-8"))
    good = default_tables("roll-under")["death-and-dismemberment"].model_dump(mode="json")
    broken = json.loads(json.dumps(good))
    broken["name"] = "Crits"
    broken["id"] = "crits"
    broken["rows"][2]["low"] = 2
    data["tables"] = [good, broken]
    campaign.path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(LibraryProblem) as caught:
        Campaign.load(campaign.path)
    assert str(caught.value) == (
        f'{campaign.path}, table #2 "Crits": row 3 (2-3) overlaps row 2 (2)')

    data["tables"] = [good, good]
    campaign.path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(LibraryProblem) as caught:
        Campaign.load(campaign.path)
    assert str(caught.value) == (
        f"{campaign.path}, table #2 \"Death and Dismemberment\", field id: id "
        "'death-and-dismemberment' is also used by table #1")

    data["tables"] = {"not": "a list"}
    campaign.path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(LibraryProblem, match="field tables: must be a list of roll tables"):
        Campaign.load(campaign.path)


def test_a_failed_table_save_keeps_the_file_and_the_table(
        campaign: Campaign, monkeypatch: pytest.MonkeyPatch) -> None:
    good = campaign.path.read_bytes()
    heard: list[CampaignNotice] = []
    campaign.subscribe(heard.append)

    def no_space(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", no_space)
    chart = default_tables("d100")["damage-chart"]
    campaign.save_table(chart)
    assert campaign.path.read_bytes() == good
    assert campaign.save_problem is not None and campaign.dirty
    assert [n.stage for n in heard] == ["saved"] and heard[0].problem is campaign.save_problem
    assert campaign.table("damage-chart") == chart
    monkeypatch.undo()
    campaign.save()
    assert Campaign.load(campaign.path).tables == (chart,)


def test_a_table_from_a_campaign_is_valid_fight_data(campaign: Campaign) -> None:
    chart = default_tables("d100")["damage-chart"]
    campaign.save_table(chart)
    again = table_from_data(campaign.tables[0].model_dump(mode="json"))
    assert again == chart
