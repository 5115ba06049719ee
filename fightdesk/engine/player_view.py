"""What the players may see: the public face of the fight, for the second screen.

Built from the same card and timeline views as the GM's window, then cut down: hidden
fighters are left out everywhere (their lanes, chips and cards, and their names wherever
another line would mention them), enemies' health shows as the GM chose for this fight
(``Encounter.enemy_health``: exact, a bar, a word, or nothing), and nothing else of an
enemy's sheet, no pending decision, no typed dice, no notes and no log ever reach it. A
ruleset says nothing of its own beyond its views. See docs/ui.md, "Player view".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from .bidi import isolated, isolating, whole_name

if TYPE_CHECKING:
    from .model import Encounter
    from .ruleset import Card, Ruleset, Timeline

PARTY = ("pc", "ally")
Scrub = Callable[[str], str]


class PublicCard(NamedTuple):
    """A fighter as the players see them."""

    fighter_id: str
    name: str
    side: str
    # "7/10", a word ("bloodied"), or "" (shown as a bar only, or not at all).
    health_text: str
    # 0..1 for the bar, or None for no bar.
    health_share: float | None
    conditions: tuple[str, ...]
    out: bool
    acting: bool
    resources: tuple[str, ...] = ()


class PublicFight(NamedTuple):
    """The whole second screen: the headline, the timeline, the cards."""

    title: str
    headline: str
    timeline: Timeline
    cards: tuple[PublicCard, ...]


def health_word(health: int, maximum: int) -> str:
    """The players' word for an enemy's health, when the GM shows words."""
    if health <= 0:
        return "down"
    if maximum <= 0 or health >= maximum:
        return "unhurt"
    if health * 2 <= maximum:
        return "bloodied"
    return "hurt"


def public_fight(ruleset: Ruleset, enc: Encounter) -> PublicFight:
    """The fight as the player view shows it."""
    hidden = {fid for fid, f in enc.fighters.items() if f.hidden}
    scrub = _scrubber(enc, hidden)
    every = [(fid, card) for fid, card in ruleset.views.cards(enc) if fid in enc.fighters]
    cards = tuple(_public_card(card, enc.enemy_health, scrub)
                  for fid, card in every if fid not in hidden)
    hidden_acting = [enc.fighters[fid].side for fid, card in every
                     if fid in hidden and card.acting and not card.out]
    return PublicFight(title=scrub(enc.name),
                       headline=_headline(ruleset, enc, scrub, cards, hidden_acting),
                       timeline=_public_timeline(ruleset.views.timeline(enc), hidden, scrub),
                       cards=cards)


def _public_card(card: Card, enemy_health: str, scrub: Scrub) -> PublicCard:
    party = card.side in PARTY
    text, share = "", None
    top = max(card.health_max, 0)
    if card.health_max > 0:
        if party or enemy_health == "exact":
            text, share = f"{card.health}/{top}", _share(card.health, top)
        elif enemy_health == "bar":
            share = _share(card.health, top)
        elif enemy_health == "word":
            text = health_word(card.health, top)
    resources = tuple(scrub(_resource_text(r)) for r in card.resources) if party else ()
    return PublicCard(
        fighter_id=card.fighter_id, name=scrub(card.title), side=card.side, health_text=text,
        health_share=share, conditions=tuple(scrub(c.text) for c in card.conditions),
        out=card.out, acting=card.acting, resources=resources)


def party_dice(ruleset: Ruleset, enc: Encounter) -> dict[str, tuple[str, ...]]:
    """The dice on each visible party fighter's card (a shared page shows a player their
    own fighter's), names of hidden fighters scrubbed; no enemy's."""
    hidden = {fid for fid, f in enc.fighters.items() if f.hidden}
    scrub = _scrubber(enc, hidden)
    return {fid: tuple(scrub(d) for d in card.dice) for fid, card in ruleset.views.cards(enc)
            if fid not in hidden and card.side in PARTY and card.dice}


class PublicOdds(NamedTuple):
    label: str
    exact: str  # "3/4"
    percent: str  # "75.0%"


class PublicRoll(NamedTuple):
    """A roll waiting on a party fighter's player, as that player may see it: what to
    roll, the target so far and the exact chances (no contributions' costs, no options)."""

    roll_id: int
    fighter_id: str
    title: str
    dice: str  # "3d10", "7 coins"
    number: int  # of dice, or of coins
    sides: int
    coins: bool
    target: str
    odds: tuple[PublicOdds, ...]
    blocked: str


def public_roll(ruleset: Ruleset, enc: Encounter) -> PublicRoll | None:
    """The waiting roll when a visible party fighter makes it, its words scrubbed of
    hidden names; None for any other roll (an enemy's, the app's, a hidden fighter's)."""
    roll = ruleset.rules.pending_roll(enc)
    if roll is None or not roll.roller_id or roll.roller_id not in enc.fighters:
        return None
    fighter = enc.fighters[roll.roller_id]
    if fighter.hidden or fighter.side not in PARTY:
        return None
    view = ruleset.views.roll_view(enc)
    if view is None:
        return None
    scrub = _scrubber(enc, {fid for fid, f in enc.fighters.items() if f.hidden})
    return PublicRoll(
        roll_id=view.id, fighter_id=roll.roller_id, title=scrub(view.title),
        dice=view.dice, number=roll.count, sides=roll.sides, coins=view.coins,
        target=scrub(view.total_line),
        odds=tuple(PublicOdds(scrub(o.label), _fraction(o.chance), o.percent)
                   for o in view.odds),
        blocked=scrub(view.blocked))


def _fraction(chance: object) -> str:
    numerator = getattr(chance, "numerator", 0)
    denominator = getattr(chance, "denominator", 1)
    return f"{numerator}/{denominator}"


def _share(health: int, top: int) -> float:
    return max(0.0, min(1.0, health / top)) if top else 0.0


def _resource_text(resource: object) -> str:
    label = getattr(resource, "label", "")
    value = getattr(resource, "value", "")
    maximum = getattr(resource, "maximum", None)
    return f"{label} {value}/{maximum}" if maximum is not None else f"{label} {value}"


def _public_timeline(tl: Timeline, hidden: set[str], scrub: Scrub) -> Timeline:
    """The timeline without the hidden fighters' lanes and chips, and no tooltips (they
    are the GM's notes on the round)."""
    lanes = []
    for lane in tl.lanes:
        members = tuple(f for f in lane.fighter_ids if f not in hidden)
        if not members:
            continue
        chips = tuple(chip._replace(tooltip="", clickable=False, label=scrub(chip.label))
                      for chip in lane.chips if chip.fighter_id not in hidden)
        lanes.append(lane._replace(title=scrub(lane.title), fighter_ids=members, chips=chips))
    return tl._replace(lanes=tuple(lanes), caption=scrub(tl.caption), movable=False)


def _headline(ruleset: Ruleset, enc: Encounter, scrub: Scrub, cards: tuple[PublicCard, ...],
              hidden_acting: Sequence[str]) -> str:
    """The round, where in it, who acts (``hidden_acting``: the sides of the hidden
    fighters whose turn it is) and who is next."""
    if enc.round == 0:
        return "Before the fight"
    where = scrub(ruleset.views.where(enc))
    line = f"Round {enc.round}" + (f" · {where}" if where else "")
    acting = [c.name for c in cards if c.acting and not c.out]
    if acting and not any(name in line for name in acting):
        line += f" · {', '.join(acting)} to act"
    if not acting and hidden_acting and "turn" not in line:
        # A hidden fighter acts where the ruleset's words name nobody (street-fighter's
        # "phase 9"): the players know that someone acts, not who.
        line += " · an enemy's turn" if "enemy" in hidden_acting else " · someone's turn"
    shown = {c.fighter_id: c.name for c in cards}
    following = next((shown[f] for f in ruleset.rules.next_up(enc) if f in shown), None)
    if following:
        line += f" · next: {following}"
    return line


def _scrubber(enc: Encounter, hidden: set[str]) -> Scrub:
    """Replaces the name of every hidden fighter in a line by "someone" ("an enemy's turn"
    for a hidden enemy whose turn it is): whole names only,
    never a part of a word or of another fighter's name ("Bandit" hidden leaves "Bandit
    Captain" and "Bandits" as they are). Every name is looked for at once, the longest
    first, so a shown name that contains a hidden one is read as the shown one. A shown
    name keeps its writing direction to itself (bidi.py)."""
    hidden_names = {enc.fighters[f].name for f in hidden}
    shown = {f.name for fid, f in enc.fighters.items() if fid not in hidden}
    hidden_names -= shown
    hidden_names.discard("")
    shown |= {g.name for g in enc.groups.values()} - hidden_names
    if not hidden_names:
        return isolating(shown)
    # Whose turn it is may be said without the name: the players know an enemy acts.
    enemies = {enc.fighters[f].name for f in hidden if enc.fighters[f].side == "enemy"}
    allies = {enc.fighters[f].name for f in hidden if enc.fighters[f].side != "enemy"}
    enemy_only = hidden_names & (enemies - allies)
    names = sorted(hidden_names | (shown - {""}), key=len, reverse=True)
    pattern = re.compile("|".join(whole_name(name) for name in names))
    marker = "\x00enemy\x00"  # a hidden enemy's name, until its turn is read

    def replace(match: re.Match[str]) -> str:
        name = match.group()
        if name not in hidden_names:
            return isolated(name)
        return marker if name in enemy_only else "someone"

    def scrub(text: str) -> str:
        text = pattern.sub(replace, text)
        return text.replace(f"{marker}'s turn", "an enemy's turn").replace(marker, "someone")

    return scrub
