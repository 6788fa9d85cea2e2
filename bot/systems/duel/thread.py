"""The duel in its forum topic: the fighters (/fighter, /fighters), the duel's start, stop,
readings and deadline (/duel), the form again (/turn, also in the DM), the GM's reminders,
the export and the undo."""

from __future__ import annotations

import re

from aiogram import Bot, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import BufferedInputFile, CallbackQuery, Message
from aiogram.utils.i18n import gettext as _

from bot.filters import IN_GROUPS
from bot.middlewares.flood import step_and_its_chat
from bot.render import texts
from bot.render.common import quoted
from bot.systems.duel.callbacks import DuelRuleCallback
from bot.systems.duel.common import duel_game, require_duel, thread_of
from bot.systems.duel.deadline import WORDS as DEADLINE_WORDS
from bot.systems.duel.deadline import BadDeadline, parse_deadline
from bot.systems.duel.render.labels import deadline_line
from bot.systems.duel.render.review import deadline_presets
from bot.systems.duel.render.rules import rule_line, rules_keyboard, rules_text
from bot.systems.duel.tell import send_forms, send_review, tell
from engine import texts as engine_texts
from engine.dice.rng import Rng
from engine.duel.export import export_text
from engine.services import duel as duels
from engine.services import get_game
from engine.services.errors import NotGm
from engine.services.types import GameInfo

_VERSUS = re.compile(r"\s+(?:против|vs\.?|x)\s+|\s*\|\s*", re.IGNORECASE)


async def on_fighter(
    message: Message, command: CommandObject, bot: Bot, game: GameInfo | None
) -> None:
    game = duel_game(game)
    assert message.from_user is not None
    if not command.args:
        await message.reply(
            _("Write the fighter after the command, e.g.\n<code>/fighter Бьорн\nКласс: Рейдер\n"
              "Атака 2, Блок 1, Уклонение 0, Урон d8, ХП 24, Броня 1</code>")
        )  # fmt: skip
        return
    async with step_and_its_chat(bot):  # the sheet and its answer, one transaction
        record, warnings = await duels.save_fighter(
            game.id, command.args, actor_id=message.from_user.id
        )
        lines = [_("Fighter saved:"), f"<pre>{quoted(record.sheet)}</pre>"]
        lines += [texts.text(w) for w in warnings]
        await message.reply("\n".join(lines))


async def on_fighters(message: Message, game: GameInfo | None) -> None:
    game = duel_game(game)
    found = await duels.list_fighters(game.id)
    if not found:
        await message.reply(_("No fighters yet: add one with /fighter."))
        return
    await message.reply("\n".join(f"<pre>{quoted(f.sheet)}</pre>" for f in found))


async def on_duel(
    message: Message, command: CommandObject, bot: Bot, rng: Rng, game: GameInfo | None
) -> None:
    game = duel_game(game)
    assert message.from_user is not None
    words = (command.args or "").split(maxsplit=1)
    if words and words[0].lower() in DEADLINE_WORDS:
        await on_deadline(message, bot, rng, game, words[1] if len(words) > 1 else "")
        return
    if words and words[0].lower() in RULES_WORDS:
        await on_rules(message, game)
        return
    if words and words[0].lower() in STOP_WORDS:  # the GM stops the running duel
        async with step_and_its_chat(bot):  # the step and what it tells, one transaction
            out = await duels.stop_duel(
                game.id, thread_of(message), actor_id=message.from_user.id, rng=rng
            )
            await tell(bot, game, out.stream, out.events, out.state)
        return
    names = [n.strip() for n in _VERSUS.split(command.args or "", maxsplit=1) if n.strip()]
    if len(names) != 2:
        await message.reply(_("Name the two fighters: <code>/duel Бьорн против Такеда</code>"))
        return
    thread = thread_of(message)
    async with step_and_its_chat(bot):
        out = await duels.start_duel(
            game.id, thread=thread, a=names[0], b=names[1], actor_id=message.from_user.id, rng=rng
        )
        await tell(bot, game, out.stream, out.events, out.state)


RULES_WORDS = frozenset(("правила", "rules"))
STOP_WORDS = frozenset(("стоп", "stop"))


async def on_rules(message: Message, game: GameInfo) -> None:
    """``/duel правила``: the game's readings for its next duels, a button each (the GM's)."""
    assert message.from_user is not None
    if message.from_user.id != game.gm_id:
        raise NotGm(game_id=game.id, user_id=message.from_user.id)
    rules = duels.game_rules(game)
    await message.reply(rules_text(rules), reply_markup=rules_keyboard(game.id))


async def on_rule(query: CallbackQuery, callback_data: DuelRuleCallback, bot: Bot) -> None:
    """A tap on a reading: its next value, for the game's next duels (the GM only)."""
    game = await get_game(callback_data.game_id)
    if query.from_user.id != game.gm_id or not 0 <= callback_data.rule < len(duels.NAMES):
        await query.answer(_("Only the GM of this game changes its rules."), show_alert=True)
        return
    name = duels.NAMES[callback_data.rule]
    value = duels.next_value(duels.game_rules(game), name)
    async with step_and_its_chat(bot):
        rules = await duels.set_rule(game.id, name, value, actor_id=query.from_user.id)
        if query.message is not None:
            await bot.edit_message_text(
                rules_text(rules),
                chat_id=query.message.chat.id,
                message_id=query.message.message_id,
                reply_markup=rules_keyboard(game.id),
            )
    await query.answer(rule_line(name, rules))  # a round trip: not within the transaction


def deadline_usage() -> str:
    return _(
        "The time of each turn: <code>/duel срок 24ч</code> (or <code>2д</code>; "
        "<code>/duel срок нет</code> lifts it), and what happens then — add "
        "<code>спросить</code> (you are told who is silent and may seal a default defense "
        "for them; the default), <code>защита</code> (the default defense is sealed at once) "
        "or <code>ждать</code> (the turn waits, the fighters are reminded)."
    )


async def on_deadline(message: Message, bot: Bot, rng: Rng, game: GameInfo, args: str) -> None:
    """``/duel срок 24ч [спросить|защита|ждать]``: the GM's deadline per turn of this duel;
    without a time, the usage and a choice of common ones by buttons."""
    assert message.from_user is not None
    if message.from_user.id != game.gm_id:
        raise NotGm(game_id=game.id, user_id=message.from_user.id)
    view = await require_duel(game, thread_of(message))
    if not args.strip():
        lines = [deadline_usage()]
        if (line := deadline_line(view.state)) is not None:
            lines.insert(0, line)
        markup = deadline_presets(view.state, game.id, view.stream)
        await message.reply("\n\n".join(lines), reply_markup=markup)
        return
    try:
        hours, policy = parse_deadline(args)
    except BadDeadline:
        await message.reply(deadline_usage())
        return
    async with step_and_its_chat(bot):
        out = await duels.set_deadline(
            game.id, thread_of(message), hours=hours, policy=policy,
            actor_id=message.from_user.id, rng=rng,
        )  # fmt: skip
        await tell(bot, game, out.stream, out.events, out.state)


async def on_turn(message: Message, bot: Bot, game: GameInfo | None) -> None:
    """The form again (in the thread: for this duel; in the DM: every duel waiting)."""
    game = duel_game(game)
    assert message.from_user is not None
    user = message.from_user.id
    views = (
        await duels.open_duels(game.id)
        if message.chat.type == "private"
        else [await require_duel(game, thread_of(message))]
    )
    sent = 0
    for view in views:
        sent += await send_forms(bot, game, view.stream, view.state, only={user})
    if sent:
        await message.reply(_("The form is in your DM with the bot."))
    else:
        await message.reply(_("No turn of yours is waiting (or start the bot in the DM first)."))


async def on_remind(message: Message, bot: Bot, game: GameInfo | None) -> None:
    game = duel_game(game)
    assert message.from_user is not None
    if message.from_user.id != game.gm_id:
        raise NotGm(game_id=game.id, user_id=message.from_user.id)
    view = await require_duel(game, thread_of(message))
    sent = await send_forms(bot, game, view.stream, view.state)
    await message.reply(_("Reminders sent: {n}.").format(n=sent))


async def on_export(message: Message, game: GameInfo | None) -> None:
    game = duel_game(game)
    view = await require_duel(game, thread_of(message))
    locale = texts.locale()
    text = export_text(view.state, lambda t, n: engine_texts.translate(locale, t, n))
    document = BufferedInputFile(text.encode("utf-8"), filename="duel.txt")
    await message.reply_document(document, caption=_("The whole duel as text."))


async def on_undo(message: Message, bot: Bot, game: GameInfo | None) -> None:
    game = duel_game(game)
    assert message.from_user is not None
    thread = thread_of(message)
    async with step_and_its_chat(bot):
        out = await duels.undo_duel(game.id, thread, actor_id=message.from_user.id)
        await message.reply(_("The last step of the duel is taken back."))
        await send_review(bot, game, out.stream, out.state)


def make_router() -> Router:
    router = Router(name="duel-thread")
    router.message.register(on_fighter, Command("fighter"), IN_GROUPS)
    router.message.register(on_fighters, Command("fighters"), IN_GROUPS)
    router.message.register(on_duel, Command("duel"), IN_GROUPS)
    router.message.register(on_remind, Command("remind"), IN_GROUPS)
    router.message.register(on_export, Command("export"), IN_GROUPS)
    router.message.register(on_undo, Command("undo"), IN_GROUPS)
    router.message.register(on_turn, Command("turn"))
    router.callback_query.register(on_rule, DuelRuleCallback.filter())
    return router
