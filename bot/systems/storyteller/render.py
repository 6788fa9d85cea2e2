"""The Storyteller fight in chat HTML: the events of a step (an NPC's rolls as what they did
when the game hides NPCs), the initiative board, the GM's private proposal and its buttons."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from aiogram import html
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup
from aiogram.utils.i18n import gettext as _
from aiogram.utils.i18n import ngettext

from bot.render import texts
from bot.render.dice import faces
from bot.render.keyboards import board_down_button, callback_button, keyboard
from bot.systems.storyteller.callbacks import FightCallback, ReviewCallback
from bot.systems.storyteller.dice import pool_failure, pool_outcome
from engine.dice.serialize import result_from_dict
from engine.observe import GM, SPECTATOR
from engine.storyteller import events as ev
from engine.storyteller.combat import BLOCK, DODGE, PARRY, Defense, Overrides
from engine.storyteller.decide import preview
from engine.storyteller.describe import POOL_ROLL, describe_event
from engine.storyteller.dice.results import PoolResult
from engine.storyteller.fight import Fight
from engine.storyteller.observe import observe, observe_description
from engine.storyteller.options import AGGRAVATED, BASHING, LETHAL

MARKS = {BASHING: "／", LETHAL: "✕", AGGRAVATED: "✱"}  # the seed's / X * on the track


@dataclasses.dataclass(frozen=True)
class Viewer:
    user_id: int
    role: str


TABLE = Viewer(0, SPECTATOR)


# --- a step's events -----------------------------------------------------------------------


def _pool(data: Any) -> str:
    if isinstance(data, dict) and data.get("hidden"):
        if data.get("outcome") == "botch":
            return html.bold(_("Critical failure (botch)"))
        if int(data.get("net", 0)) <= 0:
            return html.bold(pool_failure())
        return _("successes: {count}").format(count=html.bold(str(data["net"])))
    result = result_from_dict(data)
    assert isinstance(result, PoolResult)
    dice = faces(result.dice)
    if result.bonus_dice:
        dice += " + " + faces(result.bonus_dice)
    return _("{dice} (difficulty {difficulty}) → {outcome}").format(
        dice=dice, difficulty=result.difficulty, outcome=pool_outcome(result)
    )


def events_lines(
    events: Iterable[ev.Event], fight: Fight, viewer: Viewer = TABLE, *names: Fight
) -> list[str]:
    """Each event's sentences; ``names`` other states that may know a removed fighter."""
    known = {f.id: f.character.name for s in (*names, fight) for f in s.fighters}
    out = []
    for e in events:
        for d in describe_event(e):
            seen = observe_description(fight, e, d, viewer)
            if seen is None:
                continue
            out.append(
                texts.text(
                    seen, name=lambda fid: html.bold(html.quote(known.get(fid, fid))), kinds=KINDS
                )
            )
    return out


KINDS = {POOL_ROLL: _pool}


# --- the board -----------------------------------------------------------------------------

MARK_LABELS = {
    "up": "👉",
    "acted": "✔️",
    "delayed": "⏸",
    "yielded": "⏭",
    "gave_up": "✋",
    "waiting": "·",
}


def track(view: dict[str, Any]) -> str:
    marks = [MARKS.get(m, "?") for m in view["health"]]
    return "[" + "".join(marks + ["·"] * (view["levels"] - len(marks))) + "]"


def fighter_line(view: dict[str, Any]) -> str:
    parts = [MARK_LABELS.get(view["mark"], "·"), html.bold(html.quote(view["name"]))]
    if view.get("initiative") is not None:
        parts.append(_("initiative {total}").format(total=view["initiative"]))
    if "health" in view:
        parts.append(track(view))
        if view["penalty"]:
            parts.append(_("−{count} dice").format(count=view["penalty"]))
        now, rating = view["willpower"]
        parts.append(_("Willpower {now}/{rating}").format(now=now, rating=rating))
    if view["full_defense"]:
        parts.append("🛡")
    if view["dead"]:
        parts.append(_("☠️ killed"))
    elif view["out"]:
        parts.append(_("☠️ out of the fight"))
    return " ".join(parts)


def board_text(fight: Fight, *, closed: bool = False, seq: int = 0) -> str:
    board = observe(fight, TABLE)
    if closed:
        head = _("⚔️ <b>Fight over</b>")
    elif fight.round:
        head = _("⚔️ <b>Fight — turn {round}</b>").format(round=fight.round)
    else:
        head = _("⚔️ <b>Fight — before initiative</b>")
    lines = [head]
    by_id = {f["id"]: f for f in board["fighters"]}
    placed: set[str] = set()
    for group in board["groups"]:
        if len(group) > 1:
            lines.append(_("at the same time:"))
        for fid in group:
            lines.append(("  " if len(group) > 1 else "") + fighter_line(by_id[fid]))
            placed.add(fid)
    for f in board["fighters"]:
        if f["id"] not in placed:
            lines.append(fighter_line(f))
    if not board["fighters"]:
        lines.append(_("Nobody is in the fight yet: the GM adds fighters with /add."))
    if fight.proposal is not None:
        lines.append(_("⏳ An attack waits for the GM's decision."))
    return "\n".join(lines)


def turn_keyboard(game_id: int, seq: int) -> InlineKeyboardMarkup:
    """Under a new turn's message: «⬇️ Доска вниз», as /board."""
    data = FightCallback(action="board", game_id=game_id, seq=seq)
    return keyboard([[board_down_button(data)]])


def board_keyboard(game_id: int, seq: int) -> InlineKeyboardMarkup:
    def button(label: str, action: str) -> InlineKeyboardButton:
        return callback_button(label, FightCallback(action=action, game_id=game_id, seq=seq))

    return keyboard(
        [
            [button(_("⚔️ Attack"), "attack")],
            [button(_("🎲 Initiative"), "init"), button(_("✔️ Turn done"), "done")],
            [button(_("⏸ Delay"), "delay"), button(_("⏭ Yield"), "yield")],
            [button(_("🛡 Full defense"), "fulldef"), button(_("↩️ Undo"), "undo")],
        ]
    )


# --- the GM's review -----------------------------------------------------------------------


def defense_label(kind: str | None) -> str:
    labels = {None: _("no defense"), BLOCK: _("block"), DODGE: _("dodge"), PARRY: _("parry")}
    return labels.get(kind, str(kind))


def damage_label(kind: str | None) -> str:
    labels = {
        None: _("as the weapon"),
        BASHING: _("bashing"),
        LETHAL: _("lethal"),
        AGGRAVATED: _("aggravated"),
    }
    return labels.get(kind, str(kind))


def waiting_text(fight: Fight) -> str:
    """The table's notice of a proposal (nothing of its dice)."""
    assert fight.proposal is not None
    a = fight.proposal.attack
    return _("⏳ Attack: {attacker} → {target}. The GM decides before it is shown.").format(
        attacker=html.bold(html.quote(fight.fighter(a.attacker).character.name)),
        target=html.bold(html.quote(fight.fighter(a.target).character.name)),
    )


def proposal_text(fight: Fight, game_name: str) -> str:
    assert fight.proposal is not None
    o = fight.proposal.attack.overrides
    lines = [
        _("🎲 <b>Proposal</b> in «{game}» (only you see it):").format(game=html.quote(game_name))
    ]
    lines += events_lines(preview(fight), fight, Viewer(0, GM))
    changes = []
    if o.difficulty is not None:
        changes.append(_("difficulty {n}").format(n=o.difficulty))
    if o.dice is not None:
        changes.append(ngettext("{count} die", "{count} dice", o.dice).format(count=o.dice))
    if o.defense is not None or o.no_defense:
        changes.append(defense_label(None if o.no_defense or not o.defense else o.defense.kind))
    if o.damage_type is not None:
        changes.append(_("damage {type}").format(type=damage_label(o.damage_type)))
    if changes:
        lines.append(_("Your changes: {changes}.").format(changes=", ".join(changes)))
    return "\n".join(lines)


def review_keyboard(fight: Fight, game_id: int, seq: int) -> InlineKeyboardMarkup:
    def button(label: str, action: str, arg: str = "") -> InlineKeyboardButton:
        data = ReviewCallback(action=action, game_id=game_id, seq=seq, arg=arg)
        return callback_button(label, data)

    shown = next(e for e in preview(fight) if isinstance(e, ev.AttackResolved))
    defense = shown.defense.kind if shown.defense is not None else None
    damage = shown.damage.damage_type if shown.damage is not None else None
    return keyboard(
        [
            [button(_("✅ Publish"), "publish")],
            [
                button(_("Difficulty −1"), "diff", "-1"),
                button(_("Difficulty +1"), "diff", "+1"),
            ],
            [button(_("Dice −1"), "dice", "-1"), button(_("Dice +1"), "dice", "+1")],
            # two a row at most: a phone gives each of three ~100 px (STACK-NOTES.md)
            *(
                [
                    button(
                        ("• " if defense == k else "") + defense_label(k), "defense", k or "none"
                    )
                    for k in pair
                ]
                for pair in ((None, BLOCK), (DODGE, PARRY))
            ),
            *(
                [button(("• " if damage == k else "") + damage_label(k), "damage", k) for k in pair]
                for pair in ((BASHING, LETHAL), (AGGRAVATED,))
            ),
            [button(_("✖️ Drop the attack"), "drop")],
        ]
    )


def adjusted(fight: Fight, action: str, arg: str) -> Overrides:
    """The proposal's overrides after one button of the review."""
    assert fight.proposal is not None
    o = fight.proposal.attack.overrides
    shown = next(e for e in preview(fight) if isinstance(e, ev.AttackResolved))
    if action == "diff":
        return dataclasses.replace(o, difficulty=shown.attack_pool.difficulty + int(arg))
    if action == "dice":
        return dataclasses.replace(o, dice=max(0, shown.attack_pool.dice + int(arg)))
    if action == "defense":
        if arg == "none":
            return dataclasses.replace(o, defense=None, no_defense=True)
        return dataclasses.replace(o, defense=_defense(shown, arg), no_defense=False)
    if action == "damage":
        return dataclasses.replace(o, damage_type=arg)
    raise ValueError(action)


def _defense(shown: ev.AttackResolved, kind: str) -> Defense:
    if shown.defense is not None:
        return dataclasses.replace(shown.defense, kind=kind)
    return Defense(kind)
