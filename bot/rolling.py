"""Which dice-engine function each roll command calls: engine/dice/commands.py (the roll log
stores the command and its argument text, so a re-roll or a reveal calls the same one)."""

from __future__ import annotations

from engine.dice.commands import make_roll

__all__ = ["make_roll"]
