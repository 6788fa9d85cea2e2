"""The command menu (setMyCommands): Russian for everyone, English for English clients; the
chat menu button of private chats opens the Mini App when PUBLIC_URL is an HTTPS address."""

from __future__ import annotations

from aiogram import Bot
from aiogram.types import BotCommand, MenuButtonDefault, MenuButtonWebApp, WebAppInfo

from bot.i18n import translator
from bot.miniapp import MiniApp
from bot.render.help import command_descriptions
from bot.render.miniapp import menu_button_text


def _commands(locale: str) -> list[BotCommand]:
    with translator(locale):
        return [BotCommand(command=c, description=d) for c, d in command_descriptions()]


async def set_commands(bot: Bot) -> None:
    """Call once at start-up, after `setup_i18n()`."""
    await bot.set_my_commands(_commands("ru"))
    await bot.set_my_commands(_commands("ru"), language_code="ru")
    await bot.set_my_commands(_commands("en"), language_code="en")


async def set_menu_button(bot: Bot, miniapp: MiniApp, locale: str = "ru") -> bool:
    """The default menu button of private chats: the Mini App (True), or Telegram's default
    when there is no HTTPS PUBLIC_URL (so a stale URL from an earlier run does not stay)."""
    page = miniapp.page_url
    if page is None:
        await bot.set_chat_menu_button(menu_button=MenuButtonDefault())
        return False
    with translator(locale):
        text = menu_button_text()
    await bot.set_chat_menu_button(
        menu_button=MenuButtonWebApp(text=text, web_app=WebAppInfo(url=page))
    )
    return True
