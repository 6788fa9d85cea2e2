"""Hidden rolls: /hr in a game's chat (or in private for the chosen game), /reveal and the
GM's «Reveal» button; /timezone, the game's zone its notices tell times in.

A `/hr` in a game's chat by someone who is neither its GM nor a player is refused, not
turned into a private roll: a hidden roll is made for the GM, and the GM of a game one does
not play in has no business receiving it; a roll meant for oneself is an open /r in the
private chat, which the refusal points to."""

from __future__ import annotations

from datetime import UTC, datetime

from aiogram import Bot, Router
from aiogram.enums import ChatType
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message
from aiogram.utils.i18n import I18n

from bot.callbacks import RevealCallback
from bot.chat_rights import ChatRights
from bot.hidden_rolls import publish_hidden_roll, reveal
from bot.middlewares.flood import step_and_its_chat
from bot.parsing import parse_receipt_code, parse_roll_id, split_hidden, topic_of
from bot.render import hidden as texts
from bot.render import hints
from bot.render.common import as_plain
from bot.rolling import make_roll
from bot.suggest import glued_die
from engine.dice.commands import spaced_die_matters
from engine.dice.rng import Rng
from engine.services import find_game, hidden_rolls_by_code, selected_private_game
from engine.services.game_settings import set_time_zone, time_zone
from webapp.receipts import local_time


def make_router() -> Router:
    router = Router(name="hidden")
    router.message.register(on_hidden_roll, Command("hr"))
    router.message.register(on_reveal, Command("reveal"))
    router.message.register(on_time_zone, Command("timezone", "tz"))
    router.callback_query.register(on_reveal_button, RevealCallback.filter())
    return router


async def on_hidden_roll(
    message: Message,
    command: CommandObject,
    bot: Bot,
    rng: Rng,
    i18n: I18n,
    chat_rights: ChatRights,
) -> None:
    user = message.from_user
    assert user is not None
    if not (command.args or "").strip():
        await message.reply(texts.hr_usage())
        return
    private = message.chat.type == ChatType.PRIVATE
    if private:
        game = await selected_private_game(user.id)
    else:
        game = await find_game(message.chat.id, topic_of(message))
    if game is None:  # the sentence translated only when it is said
        await message.reply(texts.choose_game_first() if private else texts.hidden_needs_game())
        return
    if not game.is_member(user.id):
        await message.reply(texts.not_a_member(game))
        return
    kind, args = split_hidden(command.args or "")
    fixed = glued_die(args) if spaced_die_matters(kind) else None
    if fixed is not None:  # `/hr 2 k 6` (Cyrillic k) would roll the number 2 with the comment `k 6`
        await message.reply(
            hints.spaced_die(f"/hr {fixed}" if kind == "r" else f"/hr {kind} {fixed}")
        )
        return
    result = make_roll(kind, args, rng)
    await publish_hidden_roll(
        bot=bot,
        i18n=i18n,
        message=message,
        roller=user,
        game=game,
        command=kind,
        args=args,
        result=result,
        rights=chat_rights,
    )


async def on_reveal(message: Message, command: CommandObject, bot: Bot) -> None:
    assert message.from_user is not None
    roll_id = parse_roll_id(command.args)
    if roll_id is None and (code := parse_receipt_code(command.args)) is not None:
        # the receipt code the group saw stands for the roll's number
        found = await hidden_rolls_by_code(code, gm_id=message.from_user.id)
        if len(found) != 1:
            await message.reply(texts.no_roll_with_code(code, several=len(found) > 1))
            return
        roll_id = found[0]
    if roll_id is None:
        await message.reply(texts.reveal_usage())
        return
    await reveal(bot, roll_id=roll_id, actor_id=message.from_user.id, reply_to=message)


async def on_time_zone(message: Message, command: CommandObject, bot: Bot) -> None:
    """`/timezone` shows the game's zone; `/timezone Asia/Omsk` (the GM) sets it."""
    game = await find_game(message.chat.id, topic_of(message))
    if game is None:
        await message.reply(texts.hidden_needs_game())
        return
    assert message.from_user is not None
    name = (command.args or "").strip()
    if not name:
        await message.reply(texts.time_zone_is((await time_zone(game.id)).key))
        return
    async with step_and_its_chat(bot):  # the zone and its answer, one transaction
        zone = await set_time_zone(game.id, actor_id=message.from_user.id, name=name)
        await message.reply(texts.time_zone_set(zone.key, local_time(datetime.now(UTC), zone)))


async def on_reveal_button(query: CallbackQuery, callback_data: RevealCallback, bot: Bot) -> None:
    gm_copy = query.message if isinstance(query.message, Message) else None
    await reveal(
        bot,
        roll_id=callback_data.roll_id,
        actor_id=query.from_user.id,
        reply_to=None,
        gm_copy=gm_copy,
    )
    await query.answer(as_plain(texts.revealed_toast()))
