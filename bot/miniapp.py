"""Buttons that open the Mini App (DESIGN.md decision 6, docs/webapp.md "start_param tokens").

In a group only a URL button with the direct link ``https://t.me/<bot>/<app>?startapp=<token>``
opens the Mini App (inline ``web_app`` buttons are refused there); it works once the Mini App
is registered with @BotFather under ``MINI_APP_NAME``. In a private chat a ``web_app`` button
opens ``<PUBLIC_URL>/app/`` right away (Telegram requires HTTPS); the game's token travels in
the ``tgWebAppStartParam`` query parameter, the name Telegram itself uses for direct links.

Board messages are rendered deep inside many handlers: the configuration reaches them as the
"current" MiniApp (a ContextVar set per update by `MiniAppMiddleware`, like aiogram's I18n).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from aiogram import BaseMiddleware, Bot
from aiogram.types import InlineKeyboardButton, TelegramObject

from bot.render.keyboards import app_url_button, app_web_app_button
from bot.settings import Settings
from webapp.links import direct_link, startapp_token

START_PARAM_QUERY = "tgWebAppStartParam"


@dataclass(frozen=True, slots=True)
class MiniApp:
    short_name: str  # MINI_APP_NAME, as registered with @BotFather (/newapp)
    public_url: str | None  # PUBLIC_URL without the trailing slash

    @classmethod
    def from_settings(cls, settings: Settings) -> MiniApp:
        public = (settings.public_url or "").strip().rstrip("/")
        return cls(short_name=settings.mini_app_name.strip(), public_url=public or None)

    @property
    def page_url(self) -> str | None:
        """The page a ``web_app`` button or the menu button opens; None unless HTTPS."""
        if self.public_url is None or not self.public_url.startswith("https://"):
            return None
        return f"{self.public_url}/app/"

    def web_app_url(self, token: str | None) -> str | None:
        page = self.page_url
        if page is None or token is None:
            return page
        return f"{page}?{START_PARAM_QUERY}={quote(token, safe='')}"

    async def direct_url(self, bot: Bot, token: str | None) -> str:
        me = await bot.me()  # cached by aiogram after the first call
        return direct_link(me.username or "", self.short_name, token)

    async def button(
        self, bot: Bot, game_id: int | None, screen: str | None = None, *, private: bool = False
    ) -> InlineKeyboardButton:
        """The «Open the Mini App» button for a game (None: the user's list of games)."""
        token = startapp_token(game_id, screen, bot_token=bot.token) if game_id else None
        page = self.web_app_url(token) if private else None
        if page is not None:
            return app_web_app_button(page)
        return app_url_button(await self.direct_url(bot, token))


_CURRENT: ContextVar[MiniApp | None] = ContextVar("kosti_miniapp", default=None)


def current_miniapp() -> MiniApp | None:
    return _CURRENT.get()


@contextmanager
def using_miniapp(miniapp: MiniApp | None) -> Iterator[None]:
    reset = _CURRENT.set(miniapp)
    try:
        yield
    finally:
        _CURRENT.reset(reset)


async def board_button(bot: Bot, game_id: int, screen: str) -> InlineKeyboardButton | None:
    """The button under a group's board message (None outside an update's context)."""
    miniapp = current_miniapp()
    return None if miniapp is None else await miniapp.button(bot, game_id, screen)


class MiniAppMiddleware(BaseMiddleware):
    """Makes the Mini App configuration current for the update (and `miniapp` in the data)."""

    def __init__(self, miniapp: MiniApp) -> None:
        self.miniapp = miniapp

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        data["miniapp"] = self.miniapp
        with using_miniapp(self.miniapp):
            return await handler(event, data)
