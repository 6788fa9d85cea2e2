"""The rule systems the Mini App serves beyond the dice: one registration line each
(imported by webapp/systems/__init__.py, so every use of the registry sees them). An
installed rule system without a line here has the dice roller only."""

from __future__ import annotations

from webapp.systems.duel import DUEL_WEB
from webapp.systems.registry import register
from webapp.systems.savage import SAVAGE
from webapp.systems.storyteller import STORYTELLER

register(SAVAGE)
register(STORYTELLER)
register(DUEL_WEB)
