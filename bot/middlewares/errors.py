"""Turn a failure into a short answer: dice and service errors are explained, anything
unexpected is logged and answered with "Something went wrong" (its catalog entry), a
database out of reach with a sentence that says so (nothing was stored) — never a
traceback. An update taken through the inbox is handled again after an outage instead
(bot/intake.py): its failure is let through to be retried, and the user hears nothing until
the command is applied."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.exceptions import TelegramAPIError
from aiogram.types import Message, TelegramObject, Update

from bot.intake import retried_on_outage
from bot.middlewares.refusals import tell_user
from bot.middlewares.watch import note
from bot.render.errors import (
    database_unreachable_text,
    dice_error_text,
    service_error_text,
    unexpected_error_text,
)
from engine.dice import DiceError
from engine.services.errors import ServiceError
from engine.services.metrics import DATABASE_ERRORS
from engine.services.updates import DuplicateUpdate
from engine.store.db import database_unreachable

log = logging.getLogger(__name__)


class ErrorReplyMiddleware(BaseMiddleware):
    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        try:
            return await handler(event, data)
        except DuplicateUpdate:
            note("duplicate")
            raise  # a copy of a stored update: dropped in silence (middlewares/dedup.py)
        except DiceError as error:
            note("refused")
            text = dice_error_text(error)
        except ServiceError as error:
            note("refused")
            text = service_error_text(error)
        except Exception as error:
            if database_unreachable(error):
                note("database")
                DATABASE_ERRORS.labels("update").inc()
            if database_unreachable(error) and retried_on_outage():
                raise  # handled again once the database is back (bot/intake.py)
            if database_unreachable(error):
                log.warning("the database is out of reach: %s", error)
                text = database_unreachable_text()
            else:
                note("error")
                log.exception("unexpected error while handling %r", _describe(event))
                text = unexpected_error_text()
        if isinstance(event, Update):
            await _answer(event, text)
        return None


async def _answer(update: Update, text: str) -> None:
    try:
        await tell_user(update.message or update.callback_query, text)
    except TelegramAPIError:
        log.warning("could not report an error for update %s", update.update_id, exc_info=True)


def _describe(event: TelegramObject) -> str:
    if isinstance(event, Update):
        inner = event.message or event.callback_query
        if isinstance(inner, Message):
            return f"update {event.update_id}: {(inner.text or '')[:60]!r}"
        return f"update {event.update_id} ({event.event_type})"
    return type(event).__name__
