"""Update-level middlewares, outermost first: the watch (metrics, log context), the updates in
flight (for a graceful shutdown), de-duplication, user upsert, locale, errors."""

from __future__ import annotations

from aiogram import Dispatcher
from aiogram.utils.i18n import I18n

from bot.middlewares.dedup import DedupMiddleware, SharedUpdates
from bot.middlewares.errors import ErrorReplyMiddleware
from bot.middlewares.in_flight import InFlight
from bot.middlewares.locale import StoredLocaleMiddleware
from bot.middlewares.users import UserUpsertMiddleware
from bot.middlewares.watch import WatchMiddleware


def setup_middlewares(
    dp: Dispatcher, *, i18n: I18n, default_locale: str, shared: SharedUpdates | None = None
) -> None:
    # Registered after aiogram's own update middlewares, so `event_from_user` and
    # `event_chat` are already in the data, and errors are caught inside the user's locale.
    dp.update.outer_middleware(WatchMiddleware())  # outermost: it times all the others
    in_flight = InFlight()
    dp["in_flight"] = in_flight  # the runner waits for it at shutdown
    dp.update.outer_middleware(in_flight)
    dp.update.outer_middleware(DedupMiddleware(shared))
    dp.update.outer_middleware(UserUpsertMiddleware())
    dp.update.outer_middleware(StoredLocaleMiddleware(i18n, default_locale=default_locale))
    dp.update.outer_middleware(ErrorReplyMiddleware())
