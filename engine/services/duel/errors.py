"""Refusals of the duel services: stable codes the adapters render."""

from __future__ import annotations

from engine.services.errors import ERROR_CODES, SceneActive, _Coded


class NoDuel(_Coded):
    code = "no_duel"


class DuelActive(SceneActive):
    code = "duel_active"


class NoFighter(_Coded):
    code = "no_fighter"


class SameFighter(_Coded):
    code = "same_fighter"


ERROR_CODES.update(
    {
        NoDuel.code: "There is no duel going on here.",
        DuelActive.code: "A duel is already going on here.",
        NoFighter.code: "There is no such fighter in this game: {name}",
        SameFighter.code: "A duel needs two different fighters.",
    }
)
