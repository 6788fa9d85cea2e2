"""The rule systems of the chat: one registration line each (the engine's are in
engine/services/installed.py)."""

from __future__ import annotations

from bot.systems import duel, savage, storyteller
from bot.systems.registry import register

register(savage.CHAT)
register(storyteller.CHAT)
register(duel.CHAT)
