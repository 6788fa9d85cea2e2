"""A rule system's refusals in the user's words: a reply to the message, or an alert on the
button pressed. Each system's routers install one with its own refusal types and how each is
told (a handler's own `Refusal` always, as its text); anything else passes on to
bot/middlewares/errors.py."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import CallbackQuery, InlineKeyboardMarkup, Message, TelegramObject

from bot.render.common import as_plain

Tell = Callable[[Any], str]  # a refusal -> its text (built when it happens: the user's locale)


class Refusal(Exception):
    """A handler's own refusal: ``text`` (HTML) goes back to the user as is, with ``markup``
    (the names it may have meant, as buttons)."""

    def __init__(self, text: str, markup: InlineKeyboardMarkup | None = None) -> None:
        super().__init__(text)
        self.text = text
        self.markup = markup


class Refusals(BaseMiddleware):
    def __init__(self, tell: Mapping[type[Exception], Tell]) -> None:
        self.tell = dict(tell)  # the first type that matches tells it: subclasses first
        self.types = tuple(self.tell)
        # a handler's own `Refusal` is caught too, told as its text
        self._caught: tuple[type[Exception], ...] = (*self.types, Refusal)

    def text_of(self, error: Exception) -> str:
        found = (tell for kind, tell in self.tell.items() if isinstance(error, kind))
        return next(found, _own)(error)

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        try:
            return await handler(event, data)
        except self._caught as error:
            await tell_user(event, self.text_of(error), getattr(error, "markup", None))
        return None


def _own(error: Exception) -> str:
    # a Refusal: the one type told when no other matches
    return error.text if isinstance(error, Refusal) else str(error)


async def tell_user(
    event: TelegramObject | None, text: str, markup: InlineKeyboardMarkup | None = None
) -> None:
    """A reply to a message (with the refusal's buttons, e.g. the names it may have meant);
    on a button, an alert (plain text, at most 200 characters: the user pressed something
    and expects to see why nothing happened)."""
    if isinstance(event, Message):
        await event.reply(text, reply_markup=markup)
    elif isinstance(event, CallbackQuery):
        await event.answer(as_plain(text)[:200], show_alert=True)
