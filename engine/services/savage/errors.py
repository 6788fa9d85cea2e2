"""Refusals of the SWADE services (fights, chases): stable codes the adapters render."""

from __future__ import annotations

from engine.services.errors import ERROR_CODES, SceneActive, _Coded


class NoEncounter(_Coded):
    code = "no_encounter"


class EncounterActive(SceneActive):
    code = "encounter_active"


class NoChase(_Coded):
    code = "no_chase"


class ChaseActive(SceneActive):
    code = "chase_active"


class NobodyActing(_Coded):
    code = "nobody_acting"


class NotInChase(_Coded):
    code = "not_in_chase"


ERROR_CODES.update(
    {
        NoEncounter.code: "the game has no active encounter",
        EncounterActive.code: "the game already has an active encounter",
        NoChase.code: "the game has no active chase",
        ChaseActive.code: "the game already has an active chase",
        NobodyActing.code: "nobody is taking a turn in the encounter",
        NotInChase.code: "the acting combatant has no participant in the chase",
    }
)
