"""Bot API session middleware: every outgoing text, caption and button label within
Telegram's limits (bot/render/limits.py), whichever handler built it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.methods import Response, TelegramMethod
from aiogram.methods.base import TelegramType
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.render.limits import CAPTION_LIMIT, MESSAGE_LIMIT, fit, fit_label

if TYPE_CHECKING:
    from aiogram import Bot

# Methods whose `text` is a message's text (answerCallbackQuery's has its own 200 limit).
TEXT_METHODS = frozenset({"SendMessage", "EditMessageText"})


def fit_markup(markup: object) -> None:
    if not isinstance(markup, InlineKeyboardMarkup):
        return
    for row in markup.inline_keyboard:
        for button in row:
            if isinstance(button, InlineKeyboardButton):
                label = fit_label(button.text)
                if label != button.text:  # an assignment is validated by pydantic: only if cut
                    button.text = label


class FitToLimits(BaseRequestMiddleware):
    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        text = getattr(method, "text", None)
        is_text = type(method).__name__ in TEXT_METHODS and isinstance(text, str)
        if is_text and (fitted := fit(text, MESSAGE_LIMIT)) != text:  # type: ignore[arg-type]  # is_text: a str
            method.text = fitted  # type: ignore[attr-defined]  # a text method
        caption = getattr(method, "caption", None)
        if isinstance(caption, str) and (fitted := fit(caption, CAPTION_LIMIT)) != caption:
            method.caption = fitted  # type: ignore[attr-defined]  # it has a caption
        fit_markup(getattr(method, "reply_markup", None))
        return await make_request(bot, method)
