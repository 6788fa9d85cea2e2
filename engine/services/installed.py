"""The rule systems this installation plays: one registration line each (imported by
engine/services/__init__.py, so that every use of the services sees them)."""

from __future__ import annotations

from engine.services.duel import DUEL_SYSTEM
from engine.services.savage import SAVAGE
from engine.services.systems import RuleSystem, register
from engine.storyteller import describe as _storyteller  # noqa: F401  (its templates)

register(SAVAGE)
register(RuleSystem("storyteller", "Storyteller"))  # dice only so far: no scenes yet
register(DUEL_SYSTEM)
