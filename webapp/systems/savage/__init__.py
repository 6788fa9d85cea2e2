"""Savage Worlds in the Mini App: the initiative board (the `encounter` scene), the chase row
(the `chase` scene) and the character editor, over engine/services/savage. Registered in
webapp/systems/installed.py; the page's screens are webapp/static/app/systems/savage/."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.savage import RuleError
from engine.savage.chase import ChaseError
from engine.services.savage import CHASE, CODE, ENCOUNTER
from webapp.projection import Viewer
from webapp.systems.registry import WebScene, WebSystem
from webapp.systems.savage.audience import chase_audience, encounter_audience
from webapp.systems.savage.characters import CHARACTERS
from webapp.systems.savage.chase_commands import CHASE_COMMANDS
from webapp.systems.savage.commands import ENCOUNTER_COMMANDS
from webapp.systems.savage.errors import ERRORS
from webapp.systems.savage.projection import (
    ChaseScene,
    EncounterScene,
    project_chase,
    project_encounter,
)
from webapp.systems.savage.scenes import load_chase, load_encounter


async def _load_encounter(game_id: int, read: Mapping[str, Any]) -> EncounterScene | None:
    return await load_encounter(game_id)


async def _load_chase(game_id: int, read: Mapping[str, Any]) -> ChaseScene | None:
    """The chase, with the names and owners of the encounter read for the same answer."""
    return await load_chase(game_id, read.get(ENCOUNTER.name))


def _project_encounter(scene: EncounterScene | None, viewer: Viewer) -> dict[str, Any] | None:
    return project_encounter(scene, viewer)


def _project_chase(scene: ChaseScene | None, viewer: Viewer) -> dict[str, Any] | None:
    return project_chase(scene, viewer)


SAVAGE = WebSystem(
    code=CODE,
    scenes=(
        WebScene(
            ENCOUNTER.name,
            ENCOUNTER_COMMANDS,
            _load_encounter,
            _project_encounter,
            "encounter",
            encounter_audience,
        ),
        WebScene(CHASE.name, CHASE_COMMANDS, _load_chase, _project_chase, "chase", chase_audience),
    ),
    characters=CHARACTERS,
    errors=ERRORS,
    refusals=(RuleError, ChaseError),
    module="systems/savage/index.js",
)

__all__ = ["SAVAGE"]
