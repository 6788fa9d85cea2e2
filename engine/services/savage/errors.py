"""Refusals of the SWADE services (fights, chases): stable codes the adapters render."""

from __future__ import annotations

from engine.services.errors import Refused, SceneActive


class NoEncounter(
    Refused, code="no_encounter", template="There is no fight going on in this game."
): ...


class EncounterActive(
    SceneActive, code="encounter_active", template="A fight is already going on in this game."
): ...


class NoChase(Refused, code="no_chase", template="There is no chase going on in this game."): ...


class ChaseActive(
    SceneActive, code="chase_active", template="A chase is already going on in this game."
): ...


class NobodyActing(
    Refused, code="nobody_acting", template="Nobody is taking a turn right now."
): ...


class NotInChase(
    Refused, code="not_in_chase", template="This fighter takes no part in the chase."
): ...
