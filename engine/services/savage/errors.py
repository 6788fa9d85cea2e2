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
        NoEncounter.code: "There is no fight going on in this game.",
        EncounterActive.code: "A fight is already going on in this game.",
        NoChase.code: "There is no chase going on in this game.",
        ChaseActive.code: "A chase is already going on in this game.",
        NobodyActing.code: "Nobody is taking a turn right now.",
        NotInChase.code: "This fighter takes no part in the chase.",
    }
)
