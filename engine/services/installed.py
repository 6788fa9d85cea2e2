"""The rule systems this installation plays: one registration line each (imported by
engine/services/__init__.py, so that every use of the services sees them)."""

from __future__ import annotations

from engine.services.duel import DUEL_SYSTEM
from engine.services.savage import SAVAGE
from engine.services.storyteller import STORYTELLER
from engine.services.systems import register

register(SAVAGE)
register(STORYTELLER)
register(DUEL_SYSTEM)
