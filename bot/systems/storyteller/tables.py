"""Two tables of the game's options in chat, each shown by a tap on /options or by its word
(words.TABLE_WORDS): the healing times and the aimed attacks' targets; the GM changes one
row by text and puts a table back to its default by a tap or a reset word.
The rows are read and checked by engine/storyteller/tables.py."""

from __future__ import annotations

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup
from aiogram.utils.i18n import gettext as _
from aiogram.utils.i18n import ngettext

from bot.middlewares.refusals import Refusal
from bot.render.keyboards import callback_button, keyboard
from bot.systems.storyteller.callbacks import OptionsCallback
from bot.systems.storyteller.names import norm
from bot.systems.storyteller.words import AIM, AIMS, HEAL, RESET_WORDS
from engine.storyteller import tables
from engine.storyteller.healing import healing_hours
from engine.storyteller.options import AGGRAVATED, BASHING, LETHAL, Options

ALL = "all"


def duration(hours: int) -> str:
    if hours < 24 or hours % 24:
        return ngettext("{count} hour", "{count} hours", hours).format(count=hours)
    days = hours // 24
    if days % 30 == 0:
        months = days // 30
        return ngettext("{count} month", "{count} months", months).format(count=months)
    if days % 7 == 0:
        weeks = days // 7
        return ngettext("{count} week", "{count} weeks", weeks).format(count=weeks)
    return ngettext("{count} day", "{count} days", days).format(count=days)


def _time(o: Options, damage_type: str, level: str) -> str:
    try:
        return duration(healing_hours(damage_type, level, o))
    except KeyError:
        return "—"


def heal_usage() -> str:
    return _(
        "Change a row: <code>/options лечение летальные Ранен 10д</code> (the damage type, "
        "the level, the time: 12ч, 3д, 2нед, 1мес); <code>/options лечение сброс</code> — "
        "the defaults."
    )


def aim_usage() -> str:
    return _(
        "Change a row: <code>/options прицел маленькая 2 1</code> (the target, the "
        "difficulty added from 1 to 10, the damage dice from 0 to 10); "
        "<code>/options прицел сброс</code> — the seed's table."
    )


def heal_text(o: Options) -> str:
    head = (
        _("🩹 <b>Healing times</b> (the defaults)")
        if tables.healing_is_default(o)
        else _("🩹 <b>Healing times</b> (changed by the GM)")
    )
    lines = [head + " — " + _("one level heals in (bashing / lethal / aggravated):")]
    lines += [
        f"• {h.name}: " + " / ".join(_time(o, t, h.code) for t in (BASHING, LETHAL, AGGRAVATED))
        for h in o.health
    ]
    return "\n".join([*lines, "", heal_usage()])


def aim_text(o: Options) -> str:
    head = (
        _("🎯 <b>Aimed attacks</b> (the seed's table)")
        if tables.aim_is_default(o)
        else _("🎯 <b>Aimed attacks</b> (changed by the GM)")
    )
    lines = [head + " — " + _("difficulty // damage dice, armor is ignored:")]
    lines += [f"• {t.name}: +{t.difficulty} // +{t.damage}" for t in o.aim_targets]
    return "\n".join([*lines, "", aim_usage()])


def table_text(o: Options, view: str) -> str:
    return heal_text(o) if view == HEAL else aim_text(o)


def overview_buttons(game_id: int) -> list[InlineKeyboardButton]:
    return [
        callback_button(_("🩹 Healing times"), OptionsCallback(game_id=game_id, view=HEAL)),
        callback_button(_("🎯 Aimed attacks"), OptionsCallback(game_id=game_id, view=AIM)),
    ]


def table_keyboard(o: Options, view: str, game_id: int) -> InlineKeyboardMarkup:
    """«All options», and «Defaults» while the table is not its default."""
    row = [callback_button(_("⬅️ All options"), OptionsCallback(game_id=game_id, view=ALL))]
    default = tables.healing_is_default(o) if view == HEAL else tables.aim_is_default(o)
    if not default:
        row.append(
            callback_button(
                _("↩️ Defaults"), OptionsCallback(game_id=game_id, view=view, reset=True)
            )
        )
    return keyboard([row])


def reset(o: Options, view: str) -> Options:
    return tables.default_healing(o) if view == HEAL else tables.default_aim(o)


def changed_table(o: Options, view: str, value: str) -> Options:
    """The options after `/options <table word> …` (words.TABLE_WORDS; the engine refuses
    what is out of range; Refusal when the words do not make a row)."""
    if norm(value) in RESET_WORDS:
        return reset(o, view)
    words = value.split()
    if view == HEAL:
        if len(words) < 3:
            raise Refusal(heal_usage())
        kind = tables.damage_type_of(words[0])
        level = tables.level_of(o, " ".join(words[1:-1]))
        return tables.set_heal_time(o, kind, level, tables.parse_duration(words[-1]))
    numbers = words[-2:]
    if len(words) < 3 or not all(n.lstrip("-").isdigit() for n in numbers):
        raise Refusal(aim_usage())
    name = " ".join(words[:-2])
    code = AIMS.get(norm(name)) or tables.aim_code(o, name)
    return tables.set_aim(o, code, int(numbers[0]), int(numbers[1]))
