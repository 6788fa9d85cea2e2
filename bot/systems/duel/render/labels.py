"""The duel's words in the chat: fighters' names, actions, states (HTML)."""

from __future__ import annotations

import time

from aiogram.utils.i18n import gettext as _

from bot.render import texts
from bot.render.common import quoted
from engine.describe import Description
from engine.duel import Action, Attack, Block, Dodge, DuelState, FighterState, FullDefense, Trick
from engine.duel.describe import describe_fighter

ARROWS = {"left": "⬅️", "top": "⬆️", "right": "➡️"}


def name(state: DuelState, fighter_id: str) -> str:
    try:
        return f"<b>{quoted(state.fighter(fighter_id).fighter.name)}</b>"
    except ValueError:
        return quoted(fighter_id)


def describe(state: DuelState, d: Description) -> str:
    return texts.text(d, lambda fid: name(state, fid))


def side(direction: str) -> str:
    return texts.template_text(f"duel_side.{direction}")


def way(direction: str) -> str:
    return texts.template_text(f"duel_way.{direction}")


def title(state: DuelState) -> str:
    a, b = state.fighters
    return _("⚔️ Duel: {a} against {b}").format(a=name(state, a.id), b=name(state, b.id))


def action_label(action: Action, fs: FighterState) -> str:
    if isinstance(action, Attack):
        move = fs.fighter.move(action.move)
        label = _("attack «{move}» {side}").format(
            move=quoted(move.name if move else action.move), side=side(action.direction)
        )
        if action.damage_ap:
            label += _(", AP into damage: {ap}").format(ap=action.damage_ap)
    elif isinstance(action, Trick):
        label = _("trick (difficulty {target})").format(target=6 - action.ease)
    elif isinstance(action, Block):
        label = _("block {side}").format(side=side(action.direction))
    elif isinstance(action, Dodge):
        label = _("dodge {way}").format(way=way(action.direction))
    else:
        assert isinstance(action, FullDefense)
        if action.dodge:
            label = _("full defense, dodge {way}").format(way=way(action.direction))
        else:
            label = _("full defense, block {side}").format(side=side(action.direction))
    return label + _(" — AP {ap}").format(ap=action.ap) if action.ap else label


def fighter_lines(state: DuelState, fs: FighterState) -> list[str]:
    """HP, SP, AP and every state (the engine's descriptions)."""
    return [describe(state, d) for d in describe_fighter(fs)]


def left_text(seconds: float) -> str:
    minutes = max(0, int(seconds // 60))
    hours, minutes = divmod(minutes, 60)
    if hours:
        return _("{h} h {m} min").format(h=hours, m=minutes)
    return _("{m} min").format(m=minutes)


def deadline_line(state: DuelState, now: float | None = None) -> str | None:
    """This turn's time (bot-side: the clock is read when the message is made)."""
    if state.due is None or state.over:
        return None
    now = time.time() if now is None else now
    if state.overdue or now >= state.due:
        return _("⏰ The deadline of this turn has passed.")
    return _("⏰ Time left for this turn: {left}.").format(left=left_text(state.due - now))
