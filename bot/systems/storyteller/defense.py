"""The defender's choice in the group (issue 25, item 2): the attack's one message while
the attacked player chooses — the defenses the seed allows now (decide.defense_choices),
each with its pool, one a line; the time left and what happens when it runs out."""

from __future__ import annotations

from aiogram import html
from aiogram.types import InlineKeyboardMarkup
from aiogram.utils.i18n import gettext as _

from bot.render.keyboards import callback_button, keyboard
from bot.systems.storyteller import render
from bot.systems.storyteller.callbacks import DefendCallback
from engine.storyteller import commands as cmd
from engine.storyteller.combat import BLOCK, DODGE, PARRY
from engine.storyteller.decide import DefenseChoice, default_defense, defense_choices
from engine.storyteller.fight import Fight

__all__ = ["asking_text", "choice_label", "defense_choices", "defense_keyboard"]


KIND_LABELS = {BLOCK: "🛡", DODGE: "💨", PARRY: "🗡"}


def choice_label(c: DefenseChoice, weapons: int = 1) -> str:
    """«💨 Dodge · 6 d.», «🗡 Parry · 5 d. · Willpower roll»: one line at a phone's width —
    the parry's weapon only when the defender has several (the message explains the rest)."""
    if c.kind is None:
        return _("🚫 No defense")
    name = render.defense_label(c.kind)
    name = name[:1].upper() + name[1:]
    if c.weapon is not None and weapons > 1:
        name += f" ({c.weapon})"
    how = {
        cmd.INTERRUPT_ROLL: _("{defense} · {dice} · Willpower roll"),
        cmd.INTERRUPT_POINT: _("{defense} · {dice} · Willpower point"),
    }.get(c.interrupt or "", _("{defense} · {dice}"))
    dice = _("{count} d.").format(count=c.dice)
    return f"{KIND_LABELS[c.kind]} " + how.format(defense=name, dice=dice)


def asking_text(fight: Fight, seconds: int) -> str:
    """The attack's group message while its defender chooses."""
    assert fight.proposal is not None
    a = fight.proposal.attack
    target = fight.fighter(a.target)
    default = default_defense(fight)
    lines = [
        _("⚔️ Attack: {attacker} → {target}.").format(
            attacker=html.bold(html.quote(fight.fighter(a.attacker).character.name)),
            target=html.bold(html.quote(target.character.name)),
        ),
        _("🛡 {target}, choose a defense ({seconds} s; then: {default}).").format(
            target=html.bold(html.quote(target.character.name)),
            seconds=seconds,
            default=choice_label(default),
        ),
    ]
    if any(c.interrupt for c in defense_choices(fight)):
        lines.append(
            _(
                "To defend before acting, interrupt: a Willpower roll (difficulty 6) or a "
                "Willpower point; the action of this turn is then given up."
            )
        )
    return "\n".join(lines)


def defense_keyboard(fight: Fight, game_id: int, seq: int) -> InlineKeyboardMarkup:
    choices = defense_choices(fight)
    weapons = len({c.weapon for c in choices if c.weapon is not None})
    rows = [
        [callback_button(choice_label(c, weapons), DefendCallback(game_id=game_id, seq=seq, i=i))]
        for i, c in enumerate(choices)
    ]
    return keyboard(rows)
