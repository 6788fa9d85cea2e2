"""Savage Worlds (SWADE, seed 000 Bleach adaptation) combat: pure functional core.

    events = decide(state, command, rng)      # checks the command, draws cards and dice
    state = evolve(state, event)              # deterministic
    state = replay(events)                    # no seed needed
    events = undo(events)                     # drop the last step

See docs/rules/savage.md for the rules and their seed sentences.
"""

from __future__ import annotations

from .authority import Table
from .cards import Card, Deck, full_deck, shuffled
from .character import Character, Condition, Injury, Status
from .commands import (
    AcceptDamage,
    ActNow,
    AddCombatant,
    Aim,
    ApplyDamage,
    Attack,
    ChangeFatigue,
    ClearCondition,
    Command,
    CountChaseActions,
    DealRound,
    DeclareActions,
    Defend,
    DrawNewCard,
    EscapeBonds,
    GiveBennies,
    Hold,
    Interrupt,
    NextTurn,
    RemoveCombatant,
    Reroll,
    SetCondition,
    SetStatus,
    Soak,
    Support,
    Test,
    TraitRoll,
    Unshake,
)
from .decide import decide, decide_with_state
from .describe import describe_event
from .encounter import Combatant, Encounter, FollowUp, LastRoll, PendingDamage
from .errors import ERROR_CODES, RuleError
from .events import EVENT_TYPES, Event, event_from_dict
from .evolve import evolve, replay, undo
from .modifiers import roll_modifiers
from .reroll import REROLLABLE, rerollable
from .sheet import (
    SheetSpec,
    character_from_json,
    character_to_json,
    format_sheet,
    instantiate,
    parse_sheet,
)
from .traits import Die, parse_die

__all__ = [
    "ERROR_CODES",
    "EVENT_TYPES",
    "REROLLABLE",
    "AcceptDamage",
    "ActNow",
    "AddCombatant",
    "Aim",
    "ApplyDamage",
    "Attack",
    "Card",
    "ChangeFatigue",
    "Character",
    "ClearCondition",
    "Combatant",
    "Command",
    "Condition",
    "CountChaseActions",
    "DealRound",
    "Deck",
    "DeclareActions",
    "Defend",
    "Die",
    "DrawNewCard",
    "Encounter",
    "EscapeBonds",
    "Event",
    "FollowUp",
    "GiveBennies",
    "Hold",
    "Injury",
    "Interrupt",
    "LastRoll",
    "NextTurn",
    "PendingDamage",
    "RemoveCombatant",
    "Reroll",
    "RuleError",
    "SetCondition",
    "SetStatus",
    "SheetSpec",
    "Soak",
    "Status",
    "Support",
    "Table",
    "Test",
    "TraitRoll",
    "Unshake",
    "character_from_json",
    "character_to_json",
    "decide",
    "decide_with_state",
    "describe_event",
    "event_from_dict",
    "evolve",
    "format_sheet",
    "full_deck",
    "instantiate",
    "parse_die",
    "parse_sheet",
    "replay",
    "rerollable",
    "roll_modifiers",
    "shuffled",
    "undo",
]
