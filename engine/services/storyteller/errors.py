"""Refusals of the Storyteller services: stable codes the adapters render."""

from __future__ import annotations

from engine.services.errors import Refused, SceneActive


class NoFight(Refused, code="no_st_fight", template="There is no fight going on in this game."): ...


class FightActive(
    SceneActive, code="st_fight_active", template="A fight is already going on in this game."
): ...
