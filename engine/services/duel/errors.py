"""Refusals of the duel services: stable codes the adapters render."""

from __future__ import annotations

from engine.services.errors import Refused, SceneActive


class NoDuel(Refused, code="no_duel", template="There is no duel going on here."): ...


class DuelActive(SceneActive, code="duel_active", template="A duel is already going on here."): ...


class NoFighter(
    Refused, code="no_fighter", template="There is no such fighter in this game: {name}"
): ...


class SameFighter(
    Refused, code="same_fighter", template="A duel needs two different fighters."
): ...
