"""The Storyteller system (seed 002) as a rule system of the services: fights (`st_fight`
scenes, with the GM's review of each attack) and the library of characters and NPC
templates, over the pure engine in engine/storyteller. Registered in
engine/services/installed.py."""

from __future__ import annotations

from engine.services.library import slug as fighter_id
from engine.services.storyteller import fights
from engine.services.storyteller.aggregates import FIGHT
from engine.services.storyteller.characters import (
    CharacterRecord,
    add_to_fight,
    delete_character,
    get_character,
    list_characters,
    save_character,
)
from engine.services.storyteller.code import CODE
from engine.services.storyteller.errors import FightActive, NoFight
from engine.services.storyteller.fights import (
    FightOutcome,
    FightView,
    current_fight,
    end_fight,
    fight_command,
    start_fight,
    undo_fight,
)
from engine.services.systems import RuleSystem, SceneKind
from engine.storyteller.commands import Command
from engine.storyteller.dice.commands import ROLLS

FIGHT_KIND = SceneKind(
    FIGHT,
    NoFight,
    FightActive,
    decide=fights.decide,
    commands=Command,
    start_params=fights.start_params,
)
STORYTELLER = RuleSystem(CODE, "Storyteller", (FIGHT_KIND,), rolls=ROLLS)

__all__ = [
    "CODE",
    "FIGHT",
    "STORYTELLER",
    "CharacterRecord",
    "FightActive",
    "FightOutcome",
    "FightView",
    "NoFight",
    "add_to_fight",
    "current_fight",
    "delete_character",
    "end_fight",
    "fight_command",
    "fighter_id",
    "get_character",
    "list_characters",
    "save_character",
    "start_fight",
    "undo_fight",
]
