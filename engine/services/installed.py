"""The rule systems this installation plays: one registration line each (imported by
engine/services/__init__.py, so that every use of the services sees them)."""

from __future__ import annotations

import engine.duel  # noqa: F401  (the duel engine's descriptions; its services come later)
from engine.services.savage import SAVAGE
from engine.services.storyteller import STORYTELLER
from engine.services.systems import RuleSystem, register

register(SAVAGE)
register(STORYTELLER)
register(RuleSystem("duel", "Forum duel"))  # dice only so far: no scenes yet
