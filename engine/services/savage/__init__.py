"""Savage Worlds (SWADE) as a rule system of the services: fights (`encounter` scenes), chases
(`chase` scenes) and the library of characters and NPC templates, over the pure engines in
engine/savage. Registered in engine/services/installed.py."""

from __future__ import annotations

from engine import savage
from engine.savage.dice.commands import ROLLS
from engine.services.savage import chases, encounters
from engine.services.savage.aggregates import CHASE, ENCOUNTER
from engine.services.savage.characters import (
    CharacterRecord,
    add_to_encounter,
    delete_character,
    get_character,
    list_characters,
    save_character,
)
from engine.services.savage.chases import (
    ChaseOutcome,
    ChaseView,
    chase_command,
    current_chase,
    end_chase,
    start_chase,
    start_chase_turn,
    undo_chase,
)
from engine.services.savage.code import CODE
from engine.services.savage.encounters import (
    EncounterOutcome,
    EncounterView,
    current_encounter,
    encounter_command,
    end_encounter,
    start_encounter,
    undo_encounter,
)
from engine.services.savage.errors import (
    ChaseActive,
    EncounterActive,
    NobodyActing,
    NoChase,
    NoEncounter,
    NotInChase,
)
from engine.services.savage.follow import (
    chase_follows,
    fight_follows,
    undo_chase_caused,
    undo_fight_caused,
)
from engine.services.savage.table import (
    quiet_mode,
    set_players_set_scene,
    set_quiet_mode,
    table_of,
)
from engine.services.systems import RuleSystem, SceneKind

ENCOUNTER_KIND = SceneKind(
    ENCOUNTER,
    NoEncounter,
    EncounterActive,
    decide=encounters.decide,
    commands=savage.Command,
    follow=chase_follows,
    follow_undo=undo_chase_caused,
)
CHASE_KIND = SceneKind(
    CHASE,
    NoChase,
    ChaseActive,
    decide=chases.decide,
    commands=chases.STEPS,
    check=chases.check,
    follow=fight_follows,
    follow_undo=undo_fight_caused,
)
SAVAGE = RuleSystem(CODE, "Savage Worlds", (ENCOUNTER_KIND, CHASE_KIND), rolls=ROLLS)

__all__ = [
    "CHASE",
    "CODE",
    "ENCOUNTER",
    "SAVAGE",
    "CharacterRecord",
    "ChaseActive",
    "ChaseOutcome",
    "ChaseView",
    "EncounterActive",
    "EncounterOutcome",
    "EncounterView",
    "NoChase",
    "NoEncounter",
    "NobodyActing",
    "NotInChase",
    "add_to_encounter",
    "chase_command",
    "current_chase",
    "current_encounter",
    "delete_character",
    "encounter_command",
    "end_chase",
    "end_encounter",
    "get_character",
    "list_characters",
    "quiet_mode",
    "save_character",
    "set_players_set_scene",
    "set_quiet_mode",
    "start_chase",
    "start_chase_turn",
    "start_encounter",
    "table_of",
    "undo_chase",
    "undo_encounter",
]
