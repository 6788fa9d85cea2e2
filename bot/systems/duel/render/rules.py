"""`/duel правила`: the game's readings of the duel seed, numbered in the message (each with
its value, in full) and one button per number (a tap steps that reading to its next value):
a reading's name and value do not fit one button's line on a phone, its number does."""

from __future__ import annotations

from aiogram.types import InlineKeyboardMarkup
from aiogram.utils.i18n import gettext as _

from bot.render.keyboards import callback_button, keyboard
from bot.systems.duel.callbacks import DuelRuleCallback
from engine.duel import DuelOptions
from engine.services.duel import NAMES
from engine.services.duel.rules import Reading


def _label(name: str) -> str:
    return {
        "dodge_tie": _("A tied dodge"),
        "wrong_side_damage": _("A block on the wrong side lets through"),
        "trick_tie": _("Two tricks that tie"),
        "series_bonus": _("A series of attacks gives"),
        "unblockable_parry": _("A parry against an unblockable attack"),
        "critical_clash": _("A critical defense against a critical attack"),
        "top_opposite": _("The opposite side of a blow from the top"),
        "idle_block_recovers": _("A block with no attack against it"),
        "full_dodge_covers_all": _("The kensei's full dodge covers"),
        "attack_fumble": _("A 1 on the attack's d10"),
        "sp_cap": _("SP recovery is capped at"),
        "trick_contest": _("Two tricks against each other"),
        "exhaustion": _("Exhaustion after overspending"),
    }[name]


def _value(name: str, value: Reading) -> str:
    if name == "series_bonus":
        return _("+{n} to each next attack").format(n=value) if value else _("nothing")
    if name == "sp_cap":
        return _("{n} SP").format(n=value) if value else _("no cap (as the seed)")
    return {
        ("dodge_tie", "defense"): _("goes to the defense"),
        ("dodge_tie", "attack"): _("goes to the attack"),
        ("wrong_side_damage", "half"): _("X/4, half the guaranteed damage"),
        ("wrong_side_damage", "guaranteed"): _("X/2, the guaranteed damage"),
        ("trick_tie", "both"): _("both succeed"),
        ("trick_tie", "neither"): _("neither succeeds"),
        ("unblockable_parry", True): _("stops it"),
        ("unblockable_parry", False): _("does not stop it"),
        ("critical_clash", "defense"): _("the defense wins"),
        ("critical_clash", "attack"): _("the attack's rule applies"),
        ("top_opposite", "none"): _("none"),
        ("top_opposite", "sides"): _("either side"),
        ("idle_block_recovers", True): _("restores 1 SP"),
        ("idle_block_recovers", False): _("restores nothing"),
        ("full_dodge_covers_all", True): _("every attack of the turn"),
        ("full_dodge_covers_all", False): _("one attack"),
        ("attack_fumble", "miss"): _("misses, a critical failure"),
        ("attack_fumble", "roll"): _("is only a low roll"),
        ("trick_contest", "opposed"): _("the higher wins, even below 6"),
        ("trick_contest", "checked"): _("each needs 6+ first"),
        ("exhaustion", "counter"): _("as many turns as overspent"),
        ("exhaustion", "sp"): _("also while SP ≤ 0"),
    }[(name, value)]


def rule_line(name: str, rules: DuelOptions) -> str:
    return f"{_label(name)}: {_value(name, getattr(rules, name))}"


def rules_text(rules: DuelOptions) -> str:
    head = _(
        "How the places the duel rules leave open are read in this game's next duels. The "
        "button with a reading's number switches it to the next one; a running duel keeps "
        "its own:"
    )
    lines = (f"{i}. {rule_line(name, rules)}" for i, name in enumerate(NAMES, 1))
    return "\n".join([head, *lines])


BUTTONS_A_ROW = 5  # a number's button keeps a finger's width on a phone


def rules_keyboard(game_id: int) -> InlineKeyboardMarkup:
    buttons = [
        callback_button(str(i + 1), DuelRuleCallback(game_id=game_id, rule=i))
        for i in range(len(NAMES))
    ]
    rows = [buttons[i : i + BUTTONS_A_ROW] for i in range(0, len(buttons), BUTTONS_A_ROW)]
    return keyboard(rows)
