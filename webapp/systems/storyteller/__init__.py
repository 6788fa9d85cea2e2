"""Storyteller in the Mini App: the initiative board (the `st_fight` scene) with the GM's
review of each attack and the character editor, over engine/services/storyteller. Registered in
webapp/systems/installed.py; the page's screens are webapp/static/app/systems/storyteller/."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

from engine.services.storyteller import CODE, FIGHT
from engine.storyteller.errors import StorytellerError
from engine.storyteller.observe import audience
from webapp.projection import Viewer
from webapp.systems.registry import WebScene, WebSystem
from webapp.systems.storyteller.characters import CHARACTERS
from webapp.systems.storyteller.commands import FIGHT_COMMANDS
from webapp.systems.storyteller.errors import ERRORS
from webapp.systems.storyteller.odds import ODDS_ROUTE
from webapp.systems.storyteller.projection import FightScene, project_fight
from webapp.systems.storyteller.scenes import load_fight


async def _load(game_id: int, read: Mapping[str, Any]) -> FightScene | None:
    return await load_fight(game_id)


def _project(scene: FightScene | None, viewer: Viewer) -> dict[str, Any] | None:
    return project_fight(scene, viewer)


def _audience(scene: FightScene | None, viewer: Viewer) -> Hashable:
    return None if scene is None else audience(scene.state, viewer)


STORYTELLER = WebSystem(
    code=CODE,
    scenes=(WebScene(FIGHT.name, FIGHT_COMMANDS, _load, _project, FIGHT.name, _audience),),
    characters=CHARACTERS,
    errors=ERRORS,
    refusals=(StorytellerError,),
    routes=(ODDS_ROUTE,),
    module="systems/storyteller/index.js",
)

__all__ = ["STORYTELLER"]
