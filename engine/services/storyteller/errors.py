"""Refusals of the Storyteller services: stable codes the adapters render."""

from __future__ import annotations

from engine.services.errors import ERROR_CODES, SceneActive, _Coded


class NoFight(_Coded):
    code = "no_st_fight"


class FightActive(SceneActive):
    code = "st_fight_active"


ERROR_CODES.update(
    {
        NoFight.code: "There is no fight going on in this game.",
        FightActive.code: "A fight is already going on in this game.",
    }
)
