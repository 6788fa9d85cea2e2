"""Savage Worlds' dice (seed 000): the trait roll with its acing dice and Wild Die (/t), the
damage roll against Toughness (/dmg), their results and exact odds. The roll commands are in
``commands`` (registered with the system, engine/services/savage)."""

from __future__ import annotations

from .odds import ace_at_least, odds_of_trait, trait_odds
from .results import DamageOutcome, DamageResult, TraitResult
from .rolls import damage, damage_outcome, parse_damage, parse_trait, trait

__all__ = [
    "DamageOutcome",
    "DamageResult",
    "TraitResult",
    "ace_at_least",
    "damage",
    "damage_outcome",
    "odds_of_trait",
    "parse_damage",
    "parse_trait",
    "trait",
    "trait_odds",
]
