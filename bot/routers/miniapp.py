"""/app: a button that opens the Mini App — the direct link for this chat's game in a group
(a word opens a screen: the rule systems' `app_screens`, bot/systems/), a ``web_app`` button in the
private chat (for the game chosen with /games, else the list of games)."""

from __future__ import annotations

from aiogram import Bot, Router
from aiogram.enums import ChatType
from aiogram.filters import Command, CommandObject
from aiogram.types import Message

from bot.miniapp import MiniApp
from bot.parsing import parse_app_screen, topic_of
from bot.render import miniapp as texts
from bot.render.keyboards import single_button
from engine.services import find_game, selected_private_game


def make_router() -> Router:
    router = Router(name="miniapp")
    router.message.register(on_app, Command("app", "miniapp"))
    return router


async def on_app(message: Message, command: CommandObject, bot: Bot, miniapp: MiniApp) -> None:
    screen = parse_app_screen(command.args)
    if screen is None:
        await message.reply(texts.app_usage())
        return
    assert message.from_user is not None
    if message.chat.type == ChatType.PRIVATE:
        game = await selected_private_game(message.from_user.id)
        button = await miniapp.button(bot, game.id if game else None, screen, private=True)
        await message.reply(texts.app_in_private(game), reply_markup=single_button(button))
        return
    topic = topic_of(message)
    game = await find_game(message.chat.id, topic)
    if game is None and topic is not None:  # a topic without a game of its own: the chat's
        game = await find_game(message.chat.id, None)
    if game is None:
        button = await miniapp.button(bot, None)
        await message.reply(texts.app_no_game_in_group(), reply_markup=single_button(button))
        return
    button = await miniapp.button(bot, game.id, screen)
    await message.reply(texts.app_in_group(game, screen), reply_markup=single_button(button))
