"""Open rolls: /r (/roll) and every system's roll commands (engine/dice/commands.py), /odds
and the «Reroll» button.

In the private chat, while the user has chosen a game (/games), a roll becomes a hidden roll
of that game."""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.enums import ChatType
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message
from aiogram.utils.i18n import I18n

from bot.callbacks import RerollCallback
from bot.hidden_rolls import publish_hidden_roll
from bot.middlewares.flood import step_and_its_chat
from bot.parsing import topic_of
from bot.render import dice as texts
from bot.render import hints
from bot.render import texts as descriptions
from bot.render.keyboards import reroll_keyboard
from bot.rolling import make_roll
from bot.suggest import glued_die
from bot.systems.registry import RollHint, complete_roll
from engine.dice import Rng, odds
from engine.dice.commands import BY_CHAT, explain, spaced_die_matters
from engine.dice.results import Serializable
from engine.services import get_roll, log_roll, selected_private_game
from engine.services.rolls import OF_CHAT
from engine.services.types import RollRecord


def make_router() -> Router:
    router = Router(name="dice")
    # the Telegram commands of every roll command (engine/dice/commands.py)
    router.message.register(on_roll, Command(*BY_CHAT))
    router.message.register(on_odds, Command("odds"))
    router.callback_query.register(on_reroll, RerollCallback.filter(F.roll_id > 0))
    return router


async def on_roll(message: Message, command: CommandObject, bot: Bot, rng: Rng, i18n: I18n) -> None:
    kind = BY_CHAT[command.command.lower()].code  # the roll log's code
    args = (command.args or "").strip()
    if not args:
        await message.reply(texts.usage(kind))
        return
    fixed = glued_die(args) if spaced_die_matters(kind) else None
    if fixed is not None:  # `/r 2 k 6` (Cyrillic k) would roll the number 2 with the comment `k 6`
        await message.reply(hints.spaced_die(f"/{command.command} {fixed}"))
        return
    completed = await complete_roll(message, kind, args)  # a preset from the sheet
    if isinstance(completed, RollHint):
        await message.reply(completed.text)
        return
    args = completed
    user = message.from_user
    assert user is not None  # commands always have a sender (channels are not served)
    result = make_roll(kind, args, rng)
    if message.chat.type == ChatType.PRIVATE:
        game = await selected_private_game(user.id)
        if game is not None:
            await publish_hidden_roll(
                bot=bot,
                i18n=i18n,
                message=message,
                roller=user,
                game=game,
                command=kind,
                args=args,
                result=result,
            )
            return
    async with step_and_its_chat(bot):  # the roll and its reply, one transaction
        record = await log_roll(
            user_id=user.id,
            chat_id=message.chat.id,
            topic_id=topic_of(message),
            game_id=OF_CHAT,  # the chat's active game, looked up inside the INSERT
            command=kind,
            args=args,
            result=result.to_dict(),
        )
        await message.reply(
            texts.roll_message(user.first_name, result) + _meaning(kind, args, result),
            reply_markup=reroll_keyboard(record.id),
        )


def _meaning(kind: str, args: str, result: Serializable) -> str:
    """What the result means beyond its outcome (a preset's successes: RollCommand.explain)."""
    found = explain(kind, args, result)
    return "" if found is None else "\n" + descriptions.text(found)


async def on_odds(message: Message, command: CommandObject) -> None:
    args = (command.args or "").strip()
    if not args:
        await message.reply(texts.usage("odds"))
        return
    await message.reply(texts.odds_message(odds(args), args))


async def on_reroll(query: CallbackQuery, callback_data: RerollCallback, rng: Rng) -> None:
    record = await get_roll(callback_data.roll_id)
    if record.user_id != query.from_user.id or record.hidden:
        await query.answer(texts.not_your_roll(), show_alert=False)
        return
    result = make_roll(record.command, record.args, rng)
    assert query.bot is not None
    async with step_and_its_chat(query.bot):  # the roll and its reply, one transaction
        await _reroll(query, record, result)
    await query.answer()


async def _reroll(query: CallbackQuery, record: RollRecord, result: Serializable) -> None:
    assert query.bot is not None
    new = await log_roll(
        user_id=record.user_id,
        chat_id=record.chat_id,
        topic_id=record.topic_id,
        game_id=record.game_id,
        command=record.command,
        args=record.args,
        result=result.to_dict(),
    )
    text = texts.reroll_message(query.from_user.first_name, result)
    text += _meaning(record.command, record.args, result)
    markup = reroll_keyboard(new.id)
    if isinstance(query.message, Message):
        await query.message.reply(text, reply_markup=markup)
    else:  # too old to reply to: post into the same chat/topic
        await query.bot.send_message(
            record.chat_id, text, message_thread_id=record.topic_id, reply_markup=markup
        )
