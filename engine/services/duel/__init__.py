"""The forum duel (seed 003) as a rule system of the services: duels (`duel` scenes, one
per forum topic) and the game's fighters and classes, over the pure engine in engine/duel.
Registered in engine/services/installed.py."""

from __future__ import annotations

from engine.duel.roll import DUEL_CHECK
from engine.services.duel.aggregates import DUEL, prefix, thread_of
from engine.services.duel.code import CODE
from engine.services.duel.duels import (
    DuelOutcome,
    DuelView,
    OpenDuel,
    adjust_turn,
    current_duel,
    decide_duel,
    default_turn,
    due_duels,
    duel_at,
    duel_command,
    duel_opening,
    open_duels,
    opening_params,
    pass_deadline,
    publish_turn,
    set_deadline,
    start_duel,
    stop_duel,
    submit_turn,
    undo_duel,
)
from engine.services.duel.errors import DuelActive, NoDuel, NoFighter, SameFighter
from engine.services.duel.fighters import (
    FighterRecord,
    delete_fighter,
    game_classes,
    get_fighter,
    list_fighters,
    save_class,
    save_fighter,
)
from engine.services.duel.rules import (
    NAMES,
    choices,
    game_rules,
    new_game_rules,
    next_value,
    set_rule,
)
from engine.services.systems import RuleSystem, SceneKind


def _note(key: str) -> dict[str, int]:
    return {"thread": thread_of(key)}  # the topic the duel's step is told in


# a duel per forum topic; a finished one stays readable beside a new one
DUEL_SCENE = SceneKind(
    DUEL,
    NoDuel,
    DuelActive,
    decide=decide_duel,
    note=_note,
    scope=prefix,
    opens=opening_params,
    over=lambda state: state.over,
)
DUEL_SYSTEM = RuleSystem(
    CODE,
    "Forum duel",
    (DUEL_SCENE,),
    new_game_options=new_game_rules,
    rolls=(DUEL_CHECK,),
)

__all__ = [
    "CODE",
    "DUEL",
    "DUEL_SYSTEM",
    "NAMES",
    "DuelActive",
    "DuelOutcome",
    "DuelView",
    "FighterRecord",
    "NoDuel",
    "NoFighter",
    "OpenDuel",
    "SameFighter",
    "adjust_turn",
    "choices",
    "current_duel",
    "default_turn",
    "delete_fighter",
    "due_duels",
    "duel_at",
    "duel_command",
    "duel_opening",
    "game_classes",
    "game_rules",
    "get_fighter",
    "list_fighters",
    "next_value",
    "open_duels",
    "pass_deadline",
    "publish_turn",
    "save_class",
    "save_fighter",
    "set_deadline",
    "set_rule",
    "start_duel",
    "stop_duel",
    "submit_turn",
    "thread_of",
    "undo_duel",
]
