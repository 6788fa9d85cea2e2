"""Savage Worlds' roll commands (engine/dice/commands.py), registered with the system."""

from __future__ import annotations

from engine.dice.commands import RollCommand

from .odds import odds_of_trait
from .rolls import damage, trait

# /odds without a word is a trait roll's (`/odds d8+1`)
TRAIT = RollCommand("t", "trait", ("t",), ("t", "т"), trait, odds=odds_of_trait, die_letters=True)
DAMAGE = RollCommand("dmg", "damage", ("dmg",), ("dmg", "урон"), damage, die_letters=True)
ROLLS = (TRAIT, DAMAGE)
