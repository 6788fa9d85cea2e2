"""Application state keys of the Mini App (web.AppKey) and request keys."""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager

from aiohttp import web

from engine.dice.rng import Rng
from engine.services.notify import Notifier
from engine.services.types import RollRecord
from webapp.auth import InitData
from webapp.config import WebAppConfig
from webapp.live import Broadcaster

RollHook = Callable[[RollRecord], Awaitable[None]]

CONFIG = web.AppKey("webapp_config", WebAppConfig)
# The token initData is checked with: the bot token, or a dev token in development mode.
AUTH_TOKEN = web.AppKey("webapp_auth_token", str)
# Secret of the start_param tokens (derived from the bot token).
LINK_SECRET = web.AppKey("webapp_link_secret", bytes)
BROADCASTER = web.AppKey("webapp_broadcaster", Broadcaster)
# The change notifier the app subscribes to and binds for each request (the process's one,
# shared with the bot, when the runner passes it).
NOTIFIER = web.AppKey("webapp_notifier", Notifier)
# Called once a roll made in the Mini App is stored, within CHAT_STEP (the runner wires it to
# the bot): post the roll (or a hidden roll's receipt) to the game's chat.
ON_ROLL: web.AppKey[RollHook] = web.AppKey("webapp_on_roll")
# Called once the GM revealed a hidden roll from the Mini App, within CHAT_STEP.
ON_REVEAL: web.AppKey[RollHook] = web.AppKey("webapp_on_reveal")
# Around a roll or a reveal and its hook: the bot's transaction for a step and its chat calls
# (bot/miniapp_hooks.py `chat_step`); without a bot, nothing.
ChatStep = Callable[[], AbstractAsyncContextManager[None]]
CHAT_STEP: web.AppKey[ChatStep] = web.AppKey("webapp_chat_step")
BACKGROUND: web.AppKey[set[asyncio.Task[object]]] = web.AppKey("webapp_background")
# Open live sockets, closed with 1001 (going away) on shutdown so that clients reconnect.
SOCKETS: web.AppKey[weakref.WeakSet[web.WebSocketResponse]] = web.AppKey("webapp_sockets")
RNG = web.AppKey("webapp_rng", Rng)  # the OS RNG; a seeded one in tests

INIT_DATA = web.RequestKey("kosti_init_data", InitData)  # the validated initData
__all__ = [
    "AUTH_TOKEN",
    "BACKGROUND",
    "BROADCASTER",
    "CONFIG",
    "INIT_DATA",
    "LINK_SECRET",
    "NOTIFIER",
    "ON_REVEAL",
    "ON_ROLL",
    "RNG",
    "SOCKETS",
    "InitData",
    "RollHook",
]
