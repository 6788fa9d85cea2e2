"""The game's options in chat: /options (show them; the GM sets a reading or a table row)
and /heal (how long a fighter's wounds take to heal, from the game's healing table)."""

from __future__ import annotations

import dataclasses
from typing import Any, Protocol, TypeVar

from aiogram import Bot, Router, html
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, InlineKeyboardMarkup, Message
from aiogram.utils.i18n import gettext as _

from bot.filters import IN_GROUPS
from bot.middlewares.flood import step_and_its_chat
from bot.middlewares.refusals import Refusal
from bot.render.common import quoted
from bot.render.keyboards import keyboard
from bot.systems.filters import game_of
from bot.systems.storyteller import names, tables
from bot.systems.storyteller.callbacks import OptionsCallback
from bot.systems.storyteller.fight import default_fighter, refusals
from bot.systems.storyteller.gm_only import to_gm
from bot.systems.storyteller.words import RESET_WORDS, TABLE_WORDS
from engine.services import GameInfo, NoGame, get_game
from engine.services.storyteller import current_fight
from engine.services.storyteller.options import game_options, set_options
from engine.storyteller import tables as engine_tables
from engine.storyteller.character import Character
from engine.storyteller.fight import Fight
from engine.storyteller.healing import track_healing
from engine.storyteller.options import (
    AGGRAVATED,
    ATTRIBUTE_ONLY,
    BASHING,
    DEFAULT_OPTIONS,
    HARDER,
    IMPOSSIBLE,
    LETHAL,
    Options,
)
from engine.storyteller.sheet import (
    format_armor_row,
    format_weapon_row,
    parse_armor_rows,
    parse_weapon_rows,
)

_YES = {"да", "вкл", "on", "yes", "+"}
_NO = {"нет", "выкл", "off", "no", "-"}
_READINGS = {"сложнее": HARDER, "атрибут": ATTRIBUTE_ONLY, "невозможно": IMPOSSIBLE}
_FLAGS = {
    "броня-держит": "armor_soaks_destroying_attack",
    "проверка": "gm_review",
    "скрывать": "hide_npcs",
    "инициатива-раз": "initiative_once",
    "единицы-урон": "ones_cancel_damage",
    "все-успехи-урон": "all_extra_damage",
    "одновременно": "simultaneous_ties",
    "защита-сама": "defense_by_default",
}
_NUMBERS = {  # key -> (field, lowest, highest)
    "действия": ("max_actions", 1, 5),
    "фланг": ("flank_dice", 0, 5),
    "тыл": ("rear_dice", 0, 5),
    "вслепую": ("blind_difficulty", 0, 5),
    "защита-время": ("defense_seconds", 0, 600),
}


def make_router() -> Router:
    router = Router(name="storyteller_options")
    router.message.filter(IN_GROUPS)
    router.message.middleware(refusals())
    router.message.register(on_options, Command("options"))
    router.message.register(on_heal, Command("heal"))
    router.callback_query.middleware(refusals())
    router.callback_query.register(on_options_button, OptionsCallback.filter())
    return router


def _yes_no(on: bool) -> str:
    return _("yes") if on else _("no")


def _reading(o: Options) -> str:
    if o.missing_ability == HARDER:
        return _("the attribute alone, difficulty +{step}").format(step=o.missing_ability_step)
    if o.missing_ability == ATTRIBUTE_ONLY:
        return _("the attribute alone, the same difficulty")
    return _("impossible")


def options_text(o: Options) -> str:
    weapons = "; ".join(quoted(format_weapon_row(w)) for w in o.weapons)
    armor = "; ".join(quoted(format_armor_row(a)) for a in o.armor)
    lines = [
        _("<b>Game options</b> (each new fight starts with them, a running one keeps its own):"),
        _(
            "Without the ability: {value} — <code>/options способность сложнее 1</code>, "
            "<code>атрибут</code>, <code>невозможно</code>"
        ).format(value=_reading(o)),
        _(
            "Armor soaks the blow that destroys it: {value} — "
            "<code>/options броня-держит да|нет</code>"
        ).format(value=_yes_no(o.armor_soaks_destroying_attack)),
        _("The GM reviews each attack: {value} — <code>/options проверка да|нет</code>").format(
            value=_yes_no(o.gm_review)
        ),
        _(
            "Initiative die rolled once, at the start of the fight: {value} — "
            "<code>/options инициатива-раз да|нет</code>"
        ).format(value=_yes_no(o.initiative_once)),
        _(
            "1s cancel successes on damage and soak rolls: {value} — "
            "<code>/options единицы-урон да|нет</code>"
        ).format(value=_yes_no(o.ones_cancel_damage)),
        _(
            "Every success left after the defense adds a damage die, the first too: {value} — "
            "<code>/options все-успехи-урон да|нет</code>"
        ).format(value=_yes_no(o.all_extra_damage)),
        _(
            "Equal initiative acts at the same time (a fighter taken out still acts): {value} — "
            "<code>/options одновременно да|нет</code>"
        ).format(value=_yes_no(o.simultaneous_ties)),
        _(
            "Seconds a player has to choose a defense: {value} (0: the GM sets it) — "
            "<code>/options защита-время 60</code>"
        ).format(value=o.defense_seconds),
        _(
            "When the time runs out, the largest defense pool that spends nothing is used: "
            "{value} (no: no defense) — <code>/options защита-сама да|нет</code>"
        ).format(value=_yes_no(o.defense_by_default)),
        _("NPCs hidden from the players: {value} — <code>/options скрывать да|нет</code>").format(
            value=_yes_no(o.hide_npcs)
        ),
        _("Actions a turn at most: {value} — <code>/options действия 3</code>").format(
            value=o.max_actions
        ),
        _(
            "Maneuvers: flank +{flank} dice, rear +{rear}, blind +{blind} difficulty — "
            "<code>/options фланг 1</code>, <code>тыл 2</code>, <code>вслепую 2</code>"
        ).format(flank=o.flank_dice, rear=o.rear_dice, blind=o.blind_difficulty),
        _(
            "Weapons: {rows} — <code>/options оружие Имя (урон, тип, сложность N, "
            "способность)</code>, <code>/options оружие -Имя</code>"
        ).format(rows=weapons),
        _(
            "Armor: {rows} — <code>/options броня Имя N, штраф M</code>, "
            "<code>/options броня -Имя</code>"
        ).format(rows=armor),
        _("Healing times: {state} — <code>/options лечение</code>").format(
            state=_("the defaults")
            if engine_tables.healing_is_default(o)
            else _("changed by the GM")
        ),
        _("Aimed attacks: {rows} — <code>/options прицел</code>").format(
            rows="; ".join(f"{t.name} +{t.difficulty} // +{t.damage}" for t in o.aim_targets)
        ),
        _("<code>/options сброс</code> — the defaults."),
    ]
    return "\n".join(lines)


def _flag(word: str) -> bool:
    w = names.norm(word)
    if w in _YES:
        return True
    if w in _NO:
        return False
    raise Refusal(_("Write «да» or «нет»."))


class _Row(Protocol):
    """A row of the game's weapon or armor table."""

    @property
    def name(self) -> str: ...


R = TypeVar("R", bound=_Row)


def _without(rows: tuple[R, ...], name: str) -> tuple[R, ...]:
    key = names.norm(name)
    kept = tuple(r for r in rows if names.norm(r.name) != key)
    if len(kept) == len(rows):
        raise Refusal(_("There is no row «{name}» in the table.").format(name=quoted(name)))
    return kept


def _with(rows: tuple[R, ...], new: tuple[R, ...]) -> tuple[R, ...]:
    """The table with the new rows (a row of the same name is replaced, in its place)."""
    by_name = {names.norm(r.name): r for r in new}
    out = [by_name.pop(names.norm(r.name), r) for r in rows]
    return (*out, *by_name.values())


def changed(o: Options, text: str) -> Options:
    """The options after one «/options key value» (Refusal when it cannot be read)."""
    key, _sep, value = text.strip().partition(" ")
    key, value = names.norm(key), value.strip()
    if key in RESET_WORDS:
        return DEFAULT_OPTIONS
    if key == "способность" and value:
        word, *rest = value.split()
        reading = _READINGS.get(names.norm(word))
        if reading is None or (rest and not rest[0].isdigit()):
            raise Refusal(_("Write «сложнее N», «атрибут» or «невозможно»."))
        step = min(int(rest[0]), 5) if rest else o.missing_ability_step
        return dataclasses.replace(o, missing_ability=reading, missing_ability_step=step)
    if key in _FLAGS and value:
        flags: dict[str, Any] = {_FLAGS[key]: _flag(value)}
        return dataclasses.replace(o, **flags)
    if key in _NUMBERS and value.isdigit():
        field, low, high = _NUMBERS[key]
        if low <= int(value) <= high:
            numbers: dict[str, Any] = {field: int(value)}
            return dataclasses.replace(o, **numbers)
    if key == "оружие" and value:
        if value.startswith("-"):
            return dataclasses.replace(o, weapons=_without(o.weapons, value[1:]))
        return dataclasses.replace(o, weapons=_with(o.weapons, parse_weapon_rows(value)))
    if key == "броня" and value:
        if value.startswith("-"):
            return dataclasses.replace(o, armor=_without(o.armor, value[1:]))
        return dataclasses.replace(o, armor=_with(o.armor, parse_armor_rows(value)))
    raise Refusal(_("This option cannot be read. /options lists them."))


def overview_keyboard(game_id: int) -> InlineKeyboardMarkup:
    return keyboard([tables.overview_buttons(game_id)])


async def on_options(message: Message, command: CommandObject, bot: Bot) -> None:
    game = await game_of(message)
    if game is None:
        raise NoGame()
    assert message.from_user is not None
    options = game_options(game)
    args = (command.args or "").strip()
    key, _sep, value = args.partition(" ")
    view = TABLE_WORDS.get(names.norm(key))
    if view is not None:  # one table: shown, or one row changed (the reply is that table)
        async with step_and_its_chat(bot):  # the change and its reply, one transaction
            if value.strip():
                new = tables.changed_table(options, view, value)
                options = await set_options(game.id, new, actor_id=message.from_user.id)
            text = tables.table_text(options, view)
            if value.strip():
                text = _("Saved for the fights to come.") + "\n\n" + text
            await message.reply(text, reply_markup=tables.table_keyboard(options, view, game.id))
        return
    if not args:
        await message.reply(options_text(options), reply_markup=overview_keyboard(game.id))
        return
    new_options = changed(options, args)
    async with step_and_its_chat(bot):  # the change and its reply, one transaction
        options = await set_options(game.id, new_options, actor_id=message.from_user.id)
        await message.reply(
            _("Saved for the fights to come.") + "\n\n" + options_text(options),
            reply_markup=overview_keyboard(game.id),
        )


async def on_options_button(query: CallbackQuery, callback_data: OptionsCallback, bot: Bot) -> None:
    """A tap on /options: the message shows a table or all the options (anyone may look);
    «Defaults» puts the table back (the GM only)."""
    game = await get_game(callback_data.game_id)
    options = game_options(game)
    view = callback_data.view
    if callback_data.reset and query.from_user.id != game.gm_id:
        raise Refusal(_("Only the GM of this game changes its options."))
    async with step_and_its_chat(bot):  # the reset and its message, one transaction
        if callback_data.reset:
            options = await set_options(
                game.id, tables.reset(options, view), actor_id=query.from_user.id
            )
        if view == tables.ALL:
            text, markup = options_text(options), overview_keyboard(game.id)
        else:
            text = tables.table_text(options, view)
            markup = tables.table_keyboard(options, view, game.id)
        if isinstance(query.message, Message):
            await query.message.edit_text(text, reply_markup=markup)
    await query.answer(_("Back to the defaults.") if callback_data.reset else None)


# --- healing -------------------------------------------------------------------------------

_TYPES = {
    BASHING: lambda: _("bashing"),
    LETHAL: lambda: _("lethal"),
    AGGRAVATED: lambda: _("aggravated"),
}


async def on_heal(
    message: Message, command: CommandObject, bot: Bot, game: GameInfo | None = None
) -> None:
    """The healing times of a fighter's wounds. An NPC's (while the game hides NPCs) are the
    GM's: in the private chat with the bot (the game chosen with /games), or sent there when
    asked in the group — the group reads no level of it."""
    game = game or await game_of(message)
    if game is None:
        raise NoGame()
    assert message.from_user is not None
    user = message.from_user.id
    gm = game.gm_id == user
    view = await current_fight(game.id)
    if view is None:
        raise Refusal(_("There is no fight: the healing times are of its fighters."))
    fight = view.state
    words = (command.args or "").split()
    fighter, _rest = names.take(fight, words)
    fighter = fighter or (None if words else default_fighter(fight, user, gm))
    if fighter is None:
        raise Refusal(_("Write whose wounds: <code>/heal Veronica</code>."))
    if fighter.npc and fight.options.hide_npcs and not gm:
        raise Refusal(_("Only the GM sees this fighter's health."))
    name = html.bold(html.quote(fighter.character.name))
    text = _heal_text(fight, fighter.character, name)
    if fighter.npc and fight.options.hide_npcs and message.chat.type != "private":
        public = _("🩹 Healing of {name}: only the GM sees it.").format(name=name)
        await to_gm(bot, message, game, text, public)
        return
    await message.reply(text)


def _heal_text(fight: Fight, character: Character, name: str) -> str:
    mends = track_healing(character.health, fight.options)
    if not mends:
        return _("{name} is not hurt.").format(name=name)
    levels = {h.code: h.name for h in fight.options.health}
    lines = [_("🩹 Healing of {name}, the deepest wound first:").format(name=name)]
    lines += [
        f"• {levels.get(m.level, m.level)}, {_TYPES[m.damage_type]()} — {tables.duration(m.hours)}"
        for m in mends
    ]
    total = sum(m.hours for m in mends)
    lines.append(_("In all: {time}.").format(time=tables.duration(total)))
    return "\n".join(lines)
