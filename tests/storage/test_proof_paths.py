"""The history proof remembers where each path it wrote to leads (most of a long
fight's writes are a number in the same few models). These logs replace a model that
such a path runs through, or put one where there was none, and then write into it: the
proof must follow the model that is there now, both when the log is right and when a
later write's ``before`` fits only the model that was replaced. Also the order of the log,
now checked in one pass."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from fightdesk.storage.files import FileProblem
from fightdesk.storage.sessions import load_session
from fightdesk.storage.trust import HistoryProblem

from .damaged import played_data, write

STATUS = ["fighters", "kaede", "status"]


def with_changes(changes: list[dict[str, Any]], live_status: dict[str, Any]) -> dict[str, Any]:
    """The played demo with ``changes`` added to its last log entry (kaede's health set to
    4, so the proof has already walked to her status), and the live fight to match."""
    data = played_data()
    data["log"][-1]["changes"].extend(changes)
    data["encounter"]["fighters"]["kaede"]["status"] = live_status
    return data


def replaced_status(health_after: int, before: int = 3) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Kaede's whole status replaced (health 3), then her health written again."""
    now = played_data()["encounter"]["fighters"]["kaede"]["status"]
    assert now["health"] == 4
    new = dict(now, health=3)
    changes = [
        {"target": STATUS[:-1], "key": "status", "before": now, "after": new},
        {"target": STATUS, "key": "health", "before": before, "after": health_after},
    ]
    return changes, dict(new, health=health_after)


def test_a_write_into_a_replaced_model_replays(tmp_path: Path) -> None:
    changes, live = replaced_status(2)
    session = load_session(write(tmp_path / "replaced.json", with_changes(changes, live)))
    assert session.encounter.fighters["kaede"].status.health == 2


def test_a_write_that_fits_only_the_replaced_model_is_refused(tmp_path: Path) -> None:
    # The status the path led to before held 4: this write fits it, not the new one.
    changes, live = replaced_status(2, before=4)
    data = with_changes(changes, live)
    with pytest.raises(HistoryProblem) as caught:
        load_session(write(tmp_path / "stale.json", data))
    assert caught.value.field == f"log[{len(data['log']) - 1}].changes[2]"
    assert "held 3, not 4 as the log says" in str(caught.value)


BLOCK = {"move_id": 7, "maneuver": "Block", "absorbed": 0, "limit": 2, "gives_ep": True,
         "guards": []}


@pytest.mark.parametrize("absorbed_before, refused", [(0, False), (1, True)])
def test_a_model_put_where_there_was_none_is_written_into(
        tmp_path: Path, absorbed_before: int, refused: bool) -> None:
    """A block set where there was none (a plain ``before``), then its count written."""
    live = copy.deepcopy(played_data()["encounter"]["fighters"]["kaede"]["status"])
    assert live["block"] is None
    changes: list[dict[str, Any]] = [
        {"target": STATUS, "key": "block", "before": None, "after": BLOCK},
        {"target": [*STATUS, "block"], "key": "absorbed", "before": absorbed_before,
         "after": 1},
    ]
    live["block"] = dict(BLOCK, absorbed=1)
    path = write(tmp_path / "block.json", with_changes(changes, live))
    if refused:
        with pytest.raises(HistoryProblem, match="held 0, not 1 as the log says"):
            load_session(path)
    else:
        assert load_session(path).encounter.fighters["kaede"].status.block.absorbed == 1


def test_a_fighter_taken_out_and_put_back_is_followed(tmp_path: Path) -> None:
    """The fighter a path ran through is removed and put back anew: later writes go to the
    new one (and one that fits only the old one is refused)."""
    data = played_data()
    kaede = data["encounter"]["fighters"]["kaede"]
    again = copy.deepcopy(kaede)
    again["status"]["health"] = 9
    changes = [
        {"target": ["fighters"], "key": "kaede", "op": "del", "before": kaede},
        {"target": ["fighters"], "key": "kaede", "op": "put", "after": again},
        {"target": STATUS, "key": "health", "before": 9, "after": 8},
    ]
    good = played_data()
    good["log"][-1]["changes"].extend(changes)
    good["encounter"]["fighters"]["kaede"]["status"]["health"] = 8
    assert load_session(write(tmp_path / "back.json", good)).encounter.fighters[
        "kaede"].status.health == 8
    stale = copy.deepcopy(good)
    stale["log"][-1]["changes"][-1]["before"] = 4  # what the removed fighter held
    with pytest.raises(HistoryProblem, match="held 9, not 4 as the log says"):
        load_session(write(tmp_path / "stale.json", stale))


@pytest.mark.parametrize("seq", [1, 0])
def test_log_entries_out_of_order_are_named(tmp_path: Path, seq: int) -> None:
    """The order of the log is checked in one pass; a seq that does not rise is still
    named where it is (here the third entry's, after seq 1)."""
    data = played_data()
    assert [entry["seq"] for entry in data["log"]] == [0, 1, 2]
    data["log"][2]["seq"] = seq
    with pytest.raises(FileProblem) as caught:
        load_session(write(tmp_path / "order.json", data))
    assert caught.value.field == "log[2].seq"
    assert f"out of order (seq {seq} after 1)" in caught.value.problem
