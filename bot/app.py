"""Composition root of the bot: the Bot (HTTP session to the Bot API) and the Dispatcher.

Everything a handler needs arrives through the dispatcher's workflow data: `settings`,
`rng` (the dice randomness; seeded in tests), `i18n` and `chat_rights` (bot.chat_rights:
may the bot delete messages in a group); `miniapp` (bot.miniapp.MiniApp)
is added per update.
"""

from __future__ import annotations

from functools import cache, partial
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.base import BaseSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.enums import ParseMode
from aiogram.filters import Command
from aiogram.utils.i18n import I18n

from bot.chat_rights import ChatRights
from bot.filters import index_commands
from bot.i18n import setup_i18n
from bot.middlewares import setup_middlewares
from bot.middlewares.call_metrics import CountCalls
from bot.middlewares.dedup import SharedUpdates
from bot.middlewares.flood import FloodControl
from bot.middlewares.flood_calls import is_queued
from bot.middlewares.flood_limits import Limits
from bot.middlewares.limits import FitToLimits
from bot.middlewares.polling import OnePoller
from bot.middlewares.response_types import KeepResponseTypes
from bot.middlewares.retry import RetryAfterMiddleware
from bot.miniapp import MiniApp, MiniAppMiddleware
from bot.routers import dice, fallback, games, hidden, lang, miniapp, other_systems, start
from bot.session import BotSession
from bot.settings import Settings
from bot.systems import installed, registry
from bot.systems.filters import GameMiddleware, PlaysSystem
from engine.dice import Rng, system_rng
from engine.services.outgoing import Journal
from engine.store.redis import connect as connect_redis
from engine.store.redis import worker_id


def flood_control(
    settings: Settings,
    limits: Limits | None = None,
    *,
    journal: Journal | None = None,
    pace: bool = True,
) -> FloodControl:
    """Telegram's limits as the settings say, in `limits` (Redis) or this process's windows;
    every queued call written to `journal` (engine/services/outgoing.py) first; a group's
    messages about one a second (`pace`)."""
    return FloodControl(
        settings.flood_per_second,
        settings.flood_group_per_minute,
        limits=limits,
        journal=journal,
        pace=pace,
    )


def create_bot(
    settings: Settings,
    *,
    retry_attempts: int = 3,
    flood: FloodControl | None = None,
    session: BaseSession | None = None,
) -> Bot:
    """A Bot talking to `settings.bot_api_url` (or through `session`), HTML by default,
    within Telegram's limits (`flood`: queued per chat; by default in this process's own
    windows), retrying on 429."""
    if settings.token is None:
        raise ValueError("BOT_TOKEN is not set")
    session = session or BotSession(api=TelegramAPIServer.from_base(settings.bot_api_url))
    flood = flood or flood_control(settings)
    session.middleware(FitToLimits())  # before the queue: the text it holds is final
    session.middleware(OnePoller())
    session.middleware(flood)
    # the chat calls are retried in their queues, as long as it takes (flood_queue.py)
    session.middleware(RetryAfterMiddleware(attempts=retry_attempts, queued_elsewhere=is_queued))
    session.middleware(KeepResponseTypes())
    session.middleware(CountCalls())  # innermost: each try, as the Bot API answered it
    return Bot(
        token=settings.token,
        session=session,
        default=DefaultBotProperties(parse_mode=ParseMode.HTML, link_preview_is_disabled=True),
    )


def build_dispatcher(
    settings: Settings, *, rng: Rng | None = None, i18n: I18n | None = None, **workflow: Any
) -> Dispatcher:
    """The dispatcher with every feature router; `rng` defaults to OS entropy, `i18n` to the
    compiled `locales/` catalogs. Extra keyword arguments become workflow data too."""
    i18n = i18n or setup_i18n(settings.default_locale)
    workflow.setdefault("chat_rights", ChatRights())
    dp = Dispatcher(
        settings=settings, rng=rng if rng is not None else system_rng(), i18n=i18n, **workflow
    )
    shared = None
    if settings.redis_url:  # several workers: the updates each holds or finished
        shared = SharedUpdates(connect_redis(settings.redis_url), worker_id())
        dp["shared_updates"] = shared  # the runner closes its client
    setup_middlewares(dp, i18n=i18n, default_locale=settings.default_locale, shared=shared)
    # The Mini App's buttons (/app, the game card, the boards) need its name and URL.
    dp.update.outer_middleware(MiniAppMiddleware(MiniApp.from_settings(settings)))
    # A rule system's routers see the messages of its games only (the game loaded once).
    dp.message.outer_middleware(GameMiddleware())
    system_routers = []
    for system in registry.installed():
        for router in system.routers():
            router.message.filter(PlaysSystem(system.code))
            system_routers.append(router)
    # The shared routers answer commands no other router answers (tests/bot/test_filters.py),
    # so they come by how often they are used: the rolls first, each router a message
    # passes costs a few microseconds. The systems' routers share command words, told apart
    # by the game's system; a system's command in a game of another system (or none) is
    # answered after them.
    dp.include_routers(
        dice.make_router(),
        hidden.make_router(),
        start.make_router(),
        lang.make_router(),
        games.make_router(),
        miniapp.make_router(),
        *system_routers,
        other_systems.make_router(),
    )
    # the very last; the commands are read once all routers are in
    dp.include_router(fallback.make_router(cache(partial(known_commands, dp))))
    index_commands(dp.chain_tail)
    return dp


def known_commands(dp: Dispatcher) -> frozenset[str]:
    """Every command some message handler of `dp` answers (from its filters)."""
    return frozenset(
        command
        for router in dp.chain_tail
        for handler in router.message.handlers
        for flt in handler.filters or ()
        if isinstance(flt.callback, Command)
        for command in flt.callback.commands
        if isinstance(command, str)
    )


assert installed  # the systems register on import (bot/systems/installed.py)
