"""The bugs a GM met at the table, each through the real window."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QPushButton

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Session, new_encounter
from fightdesk.storage.sessions import demo_session
from fightdesk.ui.action_dialog import ActionDialog

KAEDE = "kaede"


def demo_in_phases(window: Any) -> Engine:
    """The demo fight at phase 10 of round 1, Dock Thug 1's die let go: the decision
    (hold or lose) is open for Dock Thug 1."""
    window.show_session(Engine(demo_session()), None)
    engine = window.document.engine
    for command in (c.StartFight(), c.StartRound(), c.NextStep()):
        assert window.document.apply(command).ok
    asked = engine.pending()  # Kaede rolls her own action dice: the GM lets the app roll
    assert asked is not None and asked.id.startswith("action-dice-kaede")
    assert window.document.apply(c.Answer(decision_id=asked.id, choice="roll")).ok
    assert window.document.apply(c.NextStep()).ok
    assert engine.pending() is not None
    return engine


def demo_past_the_ten(window: Any) -> Engine:
    """The demo fight on from :func:`demo_in_phases`: Dock Thug 1's 10 let be lost and the
    next phase begun (Brannock Vale and Kaede Moriyama have dice to come)."""
    engine = demo_in_phases(window)
    window.decision_panel.findChild(QPushButton, "choice-lose").click()
    assert window.document.apply(c.NextStep()).ok
    return engine


def move(engine: Engine, fid: str, form: str, **values: object) -> Any:
    """The command of ``fid``'s action form ``form`` with its defaults and ``values``."""
    rules, enc = engine.ruleset, engine.encounter
    chosen = next(f for f in rules.views.action_forms(enc, fid) if f.id == form)
    data = {f.name: f.default for f in chosen.fields}
    data.update(values)
    return rules.views.build_command(form, fid, data)


def test_act_on_a_card_opens_the_act_form_and_cannot_spend_by_mistake(window: Any, qtbot: Any) -> None:
    demo_in_phases(window)
    card = window.cards.card_for_fighter(KAEDE)
    assert card is not None and card.act_button is not None
    qtbot.mouseClick(card.act_button, Qt.MouseButton.LeftButton)
    dialog = next(d for d in window.findChildren(ActionDialog) if d.isVisible())
    form = dialog.current_form()
    assert form is not None and form.id == "act" and not form.enabled
    assert not dialog.go_button.isEnabled()
    assert dialog.error.isVisible() and dialog.error.text()
    # Enter confirms nothing: no log entry, the dialog still open.
    entries = len(window.document.engine.session.log)
    qtbot.keyClick(dialog, Qt.Key.Key_Return)
    assert len(window.document.engine.session.log) == entries
    assert dialog.result_label.isHidden()
    # A form that spends points says so on its button.
    words = {}
    for row in range(dialog.form_box.count()):
        dialog.form_box.setCurrentIndex(row)
        words[dialog.current_form().id] = dialog.go_button.text()
    assert words["willpower-ep"] == "Spend"
    assert words["convert"] == "Convert"
    # A move goes on the stack and rolls when it resolves: it is declared.
    assert words["act"] == "Declare"
    dialog.reject()
    QApplication.processEvents()


def test_end_round_says_which_dice_go_unplayed_and_asks(window: Any, qtbot: Any) -> None:
    engine = demo_in_phases(window)
    window.decision_panel.findChild(QPushButton, "choice-lose").click()
    assert window.document.apply(c.NextStep()).ok
    assert engine.encounter.state.phase == 9
    entries = len(engine.session.log)
    end = window.round_bar.widgetForAction(window.end_round_action)
    qtbot.mouseClick(end, Qt.MouseButton.LeftButton)
    box = window._end_round_box
    assert box is not None and box.isVisible()
    assert "phases 8 to 1 are skipped" in box.text()
    said = box.informativeText()
    assert "Kaede Moriyama: 6, 6, 5, 2" in said and "Brannock Vale: 9, 5, 4" in said
    # Keep playing (the default, also Escape): nothing happens.
    assert box.defaultButton().objectName() == "keepPlayingButton"
    qtbot.keyClick(box, Qt.Key.Key_Escape)
    assert len(engine.session.log) == entries and engine.encounter.state.stage == "phases"
    # Asked again and confirmed: the round ends.
    qtbot.mouseClick(end, Qt.MouseButton.LeftButton)
    box = window._end_round_box
    qtbot.mouseClick(box.findChild(QPushButton, "endRoundButton"), Qt.MouseButton.LeftButton)
    assert engine.encounter.state.stage in ("round-end", "round-over")


def test_end_round_with_nothing_to_lose_asks_nothing(window: Any, qtbot: Any) -> None:
    window.show_session(Engine(demo_session()), None)
    engine = window.document.engine
    for command in (c.StartFight(), c.StartRound()):
        assert window.document.apply(command).ok
    window.end_round_action.trigger()
    assert window._end_round_box is None
    assert engine.encounter.state.stage == "round-over"


def test_an_empty_fight_offers_no_start_and_says_what_to_do(window: Any, qtbot: Any) -> None:
    window.show_session(Engine(demo_session()), None)
    assert window.document.apply(c.StartFight()).ok
    window.statusBar().showMessage("Kaede Moriyama concentrates")
    window.show_session(Engine(Session.begin(new_encounter("street-fighter"))), None)
    assert window.statusBar().currentMessage() == ""
    for action in (window.start_fight_action, window.start_round_action,
                   window.next_step_action, window.forward_action):
        assert not action.isEnabled(), action.text()
    assert not window.forward_button.isEnabled()
    hint = window.cards.empty_hint
    assert hint.isVisible() and "No fighters" in hint.text()
    assert all(not card.isVisible() for card in window.cards.cards())
    # A fighter arrives: the hint goes, the fight can start.
    fighter = demo_session().start.fighters["kaede"].model_dump(mode="json")
    assert window.document.apply(c.AddFighters(fighter=fighter)).ok
    assert not hint.isVisible()
    assert window.forward_action.isEnabled() and window.forward_button.text() == "Start the fight"


def _lane_chips(view: Any, title: str) -> list[tuple[Any, Any]]:
    tl = view.timeline()
    lane_no = next(n for n, lane in enumerate(tl.lanes) if lane.title == title)
    return view._lane_layout(lane_no)


def test_group_chips_on_one_phase_never_overlap_or_clip(window: Any, qtbot: Any) -> None:
    engine = demo_in_phases(window)
    # Dock Thug 3's die shows 10 too: two members of the group on phase 10.
    assert window.document.apply(c.SetValue(fighter_id="dock-thug-3", field="status.dice.0.face",
                                            value=10)).ok
    for width in (1093, 1920):
        window.resize(width, 700)
        QApplication.processEvents()
        view = window.timeline
        view._lane_chips = {}
        laid = _lane_chips(view, "Dock Thug")
        metrics = view.fontMetrics()
        rects = [rect for _, rect in laid]
        for chip, rect in laid:
            assert rect.width() >= metrics.horizontalAdvance(chip.label), (width, chip.label)
        for n, first in enumerate(rects):
            for second in rects[n + 1:]:
                assert not first.intersects(second), (width, first, second)
    on_ten = [chip for chip, _ in laid if chip.column == 0]
    shown = on_ten[0] if len(on_ten) == 1 else None
    if shown is not None:  # merged: "×2", both members named in its tooltip
        assert shown.label == "×2"
        assert "Dock Thug 1" in shown.tooltip and "Dock Thug 3" in shown.tooltip
    else:
        assert sorted(chip.label for chip in on_ten) == ["#1", "#3"]
    assert engine.encounter.fighters["dock-thug-3"].status.dice[0].face == 10


def test_merged_chips_say_who_and_a_click_acts_with_the_one_that_can(qtbot: Any) -> None:
    from fightdesk.engine.ruleset import Chip, Lane, Timeline
    from fightdesk.ui.timeline import TimelineView

    view = TimelineView()
    qtbot.addWidget(view)
    view.resize(420, 200)
    view.show()
    qtbot.waitExposed(view)
    chips = tuple(Chip(id=f"m{n}:1", fighter_id=f"m{n}", column=0, label=f"#{n}H" if n == 1 else f"#{n}",
                       state="held" if n == 1 else "ready", tooltip=f"Mook {n}: die 10",
                       clickable=n == 1) for n in range(1, 5))
    view.set_timeline(Timeline(columns=tuple(str(p) for p in range(10, 0, -1)),
                               lanes=(Lane(id="group:g", title="Mook", fighter_ids=("m1", "m2", "m3", "m4"),
                                           chips=chips, compact=True),)))
    laid = view._lane_layout(0)
    assert len(laid) == 1
    merged, _ = laid[0]
    assert merged.label == "×4" and merged.state == "held" and merged.clickable
    assert all(f"Mook {n}" in merged.tooltip for n in range(1, 5))
    assert view.chip_rect("m3:1") == view.chip_rect("m1:1") != view.chip_rect("nothing")
    with qtbot.waitSignal(view.chipClicked) as clicked:
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.chip_rect("m1:1").center())
    assert clicked.args == ["m1", "m1:1"]


def _indicator_contrast(radio: Any) -> float:
    """How far the darkest or lightest pixel of the radio's circle is from the card's
    background (0..255): 0 means the circle cannot be seen."""
    image = radio.grab().toImage()
    background = radio.parentWidget().palette().color(radio.parentWidget().backgroundRole())
    side = min(image.height(), 20)
    worst = 0.0
    for x in range(side):
        for y in range(image.height()):
            pixel = image.pixelColor(x, y)
            worst = max(worst, abs(pixel.lightness() - background.lightness()))
    return worst


def test_switching_the_palette_live_recolours_every_card_line(window: Any, qtbot: Any,
                                                              qapp: Any) -> None:
    from PySide6.QtGui import QPalette

    from fightdesk.ui.palettes import dark_palette

    window.show_session(Engine(demo_session()), None)
    light = qapp.palette()
    kaede = window.cards.card("kaede")
    group = window.cards.card_for_fighter("dock-thug-1")
    radios = group._member_radios
    assert radios
    role = QPalette.ColorRole.WindowText
    try:
        qapp.setPalette(dark_palette())
        QApplication.processEvents()
        dark_text = dark_palette().color(role)
        for widget in (kaede.title, kaede.resources, group.title, *radios):
            assert widget.palette().color(role) == dark_text, widget
        assert kaede.palette().color(QPalette.ColorRole.Base) == dark_palette().color(
            QPalette.ColorRole.Base)
        assert all(_indicator_contrast(r) > 60 for r in radios)
        qapp.setPalette(light)
        QApplication.processEvents()
        for widget in (kaede.title, kaede.resources, group.title, *radios):
            assert widget.palette().color(role) == light.color(role), widget
        assert all(_indicator_contrast(r) > 60 for r in radios)
    finally:
        qapp.setPalette(light)


def test_damage_and_healing_are_typed_as_a_change_from_the_keyboard(window: Any, qtbot: Any) -> None:
    from PySide6.QtWidgets import QDialog

    from fightdesk.ui.cards import health_level
    from fightdesk.ui.health_dialog import parse_health

    assert parse_health("-3", 10, 10) == 7 and parse_health("+2", 7, 10) == 9
    assert parse_health("+5", 9, 10) == 10 and parse_health("12", 9, 10) == 12
    assert parse_health("-30", 9, 10) == 0
    for bad in ("", "abc", "3-", "+-2", "1.5"):
        try:
            parse_health(bad, 5, 10)
        except ValueError as exc:
            assert "-3" in str(exc)
        else:
            raise AssertionError(bad)
    assert [health_level(s) for s in (1.0, 0.6, 0.5, 0.3, 0.25, 0.0)] == [
        "ok", "ok", "warning", "warning", "danger", "danger"]

    window.show_session(Engine(demo_session()), None)
    engine = window.document.engine
    card = window.cards.card("kaede")
    card.health_button.setFocus()
    window.health_action.trigger()  # Ctrl+H: the fighter whose card has the focus
    dialog = window.findChild(QDialog, "HealthDialog")
    assert dialog is not None and dialog.isVisible() and "Kaede" in dialog.prompt.text()
    qtbot.keyClicks(dialog.edit, "x")
    assert dialog.error.isVisible() and not dialog.ok.isEnabled()
    dialog.edit.clear()
    qtbot.keyClicks(dialog.edit, "-7")
    qtbot.keyClick(dialog.edit, Qt.Key.Key_Return)
    assert engine.encounter.fighters["kaede"].status.health == 3
    assert card.health.property("level") == "warning"
    QApplication.processEvents()
    window.health_action.trigger()
    dialog = next(d for d in window.findChildren(QDialog, "HealthDialog") if d.isVisible())
    qtbot.keyClicks(dialog.edit, "-1")
    qtbot.keyClick(dialog.edit, Qt.Key.Key_Return)
    assert card.health.property("level") == "danger"
    assert card.health.palette().color(card.health.palette().ColorRole.Highlight).name() == "#c8372d"


def test_the_dice_bar_shows_every_die_and_ticks_the_successes(window: Any, qtbot: Any) -> None:
    import re

    window.show_session(Engine(demo_session()), None)
    engine = window.document.engine
    qtbot.keyClicks(window.dice_bar.edit, "5d10>=6")
    qtbot.keyClick(window.dice_bar.edit, Qt.Key.Key_Return)
    [roll] = [e.roll for e in engine.session.log[-1].events if e.roll is not None]
    text = window.dice_bar.result.text()
    hits = sum(1 for f in roll.faces if f >= 6)
    assert text.startswith(f"rolled 5d10>=6: {hits} success")
    shown = re.findall(r"(\d+)(✓?)", text.split("dice:")[1])
    assert [int(f) for f, _ in shown] == roll.faces
    assert [bool(t) for _, t in shown] == [f >= 6 for f in roll.faces]
    window.dice_bar.edit.clear()
    qtbot.keyClicks(window.dice_bar.edit, "2d6+3")
    qtbot.keyClick(window.dice_bar.edit, Qt.Key.Key_Return)
    [roll] = [e.roll for e in engine.session.log[-1].events if e.roll is not None]
    assert window.dice_bar.result.text().endswith("dice: " + " ".join(str(f) for f in roll.faces))


def test_on_a_small_laptop_screen_the_whole_timeline_shows(window: Any, qtbot: Any) -> None:
    """1093x614: a 1366x768 screen at 125%; both docks open (library and log)."""
    window.add_library_panel()
    demo_in_phases(window)
    for size in ((1093, 614), (1280, 720)):
        window.resize(*size)
        qtbot.waitUntil(lambda s=size: window.width() == s[0])
        QApplication.processEvents()
        window.give_way_to_timeline()
        QApplication.processEvents()
        timeline = window.timeline
        assert timeline.horizontalScrollBar().maximum() == 0, size
        assert timeline.viewport().width() >= timeline.comfortable_width() - 4, size
        # The timeline is as tall as its lanes: no vertical scrolling for three lanes.
        assert timeline.verticalScrollBar().maximum() == 0, size
        # Cards never overlap, and none is shorter than its lines need.
        cards = window.cards.cards()
        for n, first in enumerate(cards):
            assert first.height() >= first.layout().totalHeightForWidth(first.width()) - 1, size
            for second in cards[n + 1:]:
                assert not first.geometry().intersects(second.geometry()), size
        # The acting fighter's card is in view.
        card = window.cards.card_for_fighter("dock-thug-1")
        assert card is not None and not card.visibleRegion().isEmpty(), size
        assert window.log_view.isVisible() or window.log_dock.isVisible()


def test_the_stack_dialog_says_what_each_move_interrupts_and_fits_names(window: Any, qtbot: Any) -> None:
    engine = demo_past_the_ten(window)

    def act(fid: str, form: str, **values: object) -> None:
        assert window.document.apply(move(engine, fid, form, **values)).ok

    act("brannock", "act", maneuver="Roundhouse")
    act("kaede", "interrupt", ep_speed=1)
    dialog = window._stack_dialog
    qtbot.waitUntil(lambda: dialog is not None and dialog.isVisible())
    dialog = window._stack_dialog
    model = dialog.table.model()
    assert model.headerData(6, Qt.Orientation.Horizontal) == "Interrupts"
    rows = {model.index(r, 0).data(): model.index(r, 6).data() for r in range(model.rowCount())}
    assert "Brannock Vale" in rows["Kaede Moriyama"] and "Roundhouse" in rows["Kaede Moriyama"]
    assert rows["Brannock Vale"] == "\N{EM DASH}"
    widest = max(dialog.table.fontMetrics().horizontalAdvance(name) for name in rows)
    assert dialog.table.columnWidth(0) >= widest + 16


def test_quick_add_puts_a_fighter_in_this_fight_only_then_keeps_it_on_request(
        window: Any, qtbot: Any) -> None:
    from fightdesk.storage.library import Library

    library = Library()
    panel = window.add_library_panel(library)
    window.show_session(Engine(Session.begin(new_encounter("street-fighter"))), None)
    dialog = window.quick_add()
    assert dialog is not None and dialog.isVisible()
    dialog.buttons.accepted.emit()
    assert dialog.error.isVisible() and "name" in dialog.error.text()
    qtbot.keyClicks(dialog.name, "Harbour guard")
    dialog.side.setCurrentIndex(dialog.side.findData("enemy"))
    dialog.health.setValue(7)
    dialog.buttons.accepted.emit()
    assert not dialog.isVisible()
    engine = window.document.engine
    [fighter] = engine.encounter.fighters.values()
    assert (fighter.name, fighter.side) == ("Harbour guard", "enemy")
    assert engine.ruleset.views.card(engine.encounter, fighter.id).health == 7
    before = len(panel.campaign.fighters) if panel.campaign is not None else 0
    assert not any(f.name == "Harbour guard" for f in (panel.campaign.fighters if panel.campaign else ()))
    window.keep_in_campaign()
    assert panel.campaign is not None and len(panel.campaign.fighters) == before + 1
    kept = panel.campaign.fighters[-1]
    assert kept.name == "Harbour guard" and kept.sheet.health == 7
    # Too much health for the ruleset: said in the dialog, nothing added.
    dialog = window.quick_add()
    qtbot.keyClicks(dialog.name, "Giant")
    assert window.gm.quick_add_fighter("Giant", "enemy", 90) != ""
    assert len(engine.encounter.fighters) == 1
    dialog.reject()


def test_rename_the_fight_and_undo_it(window: Any, qtbot: Any) -> None:
    window.show_session(Engine(demo_session()), None)
    engine = window.document.engine
    old = engine.encounter.name
    dialog = window.rename_fight()
    assert dialog is not None and dialog.textValue() == old
    dialog.setTextValue("  Dockside   ambush ")
    dialog.accept()
    assert engine.encounter.name == "Dockside ambush"
    assert engine.rebuild() == engine.encounter
    window.undo_action.trigger()
    assert engine.encounter.name == old


@pytest.mark.parametrize("ruleset", ["street-fighter", "d100", "roll-under", "ashes"])
def test_card_buttons_never_squash_their_text(window: Any, qtbot: Any, ruleset: str) -> None:
    window.show_session(Engine(Session.begin(new_encounter(ruleset))), None)
    assert window.gm.quick_add_fighter("Harbour guard", "enemy", 5) == ""
    assert window.gm.quick_add_fighter("Old Teodora Vrana", "ally", 5) == ""
    for width in (1093, 1920):
        window.resize(width, 700)
        QApplication.processEvents()
        for card in window.cards.cards():
            for button in (*card.role_buttons.values(), card.health_button):
                text = button.text().replace("&", "")
                assert button.width() >= button.fontMetrics().horizontalAdvance(text) + 8, (
                    ruleset, width, text, button.width())


def test_one_forward_button_stays_put_and_one_key_drives_the_fight(window: Any, qtbot: Any) -> None:
    window.show_session(Engine(demo_session()), None)
    engine = window.document.engine
    button = window.forward_button
    place = (button.x(), button.width())
    seen = []
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    for _ in range(3):
        seen.append(button.text())
        qtbot.keyClick(window, Qt.Key.Key_F4)
        QApplication.processEvents()
        assert (button.x(), button.width()) == place
    assert seen == ["Start the fight", "Start round 1", "Roll action dice"]
    # Kaede's player rolls her own dice: asked; "-" and Return let the app roll them.
    asked = window.decision_panel
    assert asked.prompt.text().startswith("Kaede Moriyama: roll the action dice")
    qtbot.keyClicks(asked.dice, "-")
    qtbot.keyClick(asked.dice, Qt.Key.Key_Return)
    assert engine.encounter.state.phase == 10
    assert button.text().startswith("Act: Dock Thug 1")
    assert window.round_title.text().startswith("Round 1 · phase 10")
    assert window.round_title.font().pointSizeF() > window.state_label.font().pointSizeF()
    # Passing is its own action; the forward key opens the action dialog instead.
    assert window.pass_action.isEnabled() and window.pass_action.text() == "Dock Thug 1 lets the 10 go"
    qtbot.keyClick(window, Qt.Key.Key_F4)
    dialog = next(d for d in window.findChildren(ActionDialog) if d.isVisible())
    assert dialog.current_form().id == "act" and dialog.windowTitle().startswith("Dock Thug 1")
    dialog.reject()
    assert engine.encounter.state.phase == 10 and engine.pending() is None


def test_the_library_dock_steps_aside_during_rounds_and_the_choice_is_kept(window: Any, qtbot: Any) -> None:
    from fightdesk.ui import settings

    window.resize(1600, 900)
    window.add_library_panel()
    window.show_session(Engine(demo_session()), None)
    QApplication.processEvents()
    dock = window.library_dock
    assert dock is not None and dock.isVisible()
    assert window.document.apply(c.StartFight()).ok
    assert dock.isVisible()  # before round 1: fighters may still be added
    assert window.document.apply(c.StartRound()).ok
    assert not dock.isVisible()
    assert window.document.apply(c.EndRound()).ok
    assert window.document.engine.encounter.state.stage == "round-over"
    assert dock.isVisible()
    window.library_in_rounds_action.setChecked(False)
    assert settings.app_settings().value("view/hide_library_in_rounds", type=bool) is False
    assert window.document.apply(c.StartRound()).ok
    assert dock.isVisible()


def test_the_log_in_a_narrow_dock_gives_the_text_the_width(window: Any, qtbot: Any) -> None:
    demo_in_phases(window)
    log = window.log_view
    model = window.log_model
    top = model.index(model.rowCount() - 1, 1)
    tip = top.data(Qt.ItemDataRole.ToolTipRole)
    assert top.data() in tip and "R1" in tip  # whole text, and when, in the tooltip
    log.resize(330, 400)
    QApplication.processEvents()
    assert log.tree.header().isSectionHidden(0) and log.tree.treePosition() == 1
    log.resize(600, 400)
    QApplication.processEvents()
    assert not log.tree.header().isSectionHidden(0) and log.tree.treePosition() == 0
