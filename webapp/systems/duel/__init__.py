"""The forum duel in the Mini App: the game's duels (the `duel` scene: one per forum topic)
with the submission form, the GM's review and the duel board, and the game's readings of
the seed (rules.py), over engine/services/duel.
Registered in webapp/systems/installed.py; the page's screens are
webapp/static/app/systems/duel/."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.duel import DuelError
from engine.services.duel import CODE, DUEL
from webapp.systems.duel import verify
from webapp.systems.duel.commands import DUEL_COMMANDS
from webapp.systems.duel.errors import ERRORS
from webapp.systems.duel.fighters import FIGHTERS
from webapp.systems.duel.rules import RULE_ROUTES
from webapp.systems.duel.scene import DuelScene, duels_audience, load_duels, project_duels
from webapp.systems.registry import ReceiptCheck, WebScene, WebSystem


async def _load(game_id: int, read: Mapping[str, Any]) -> DuelScene | None:
    return await load_duels(game_id)


DUEL_WEB = WebSystem(
    code=CODE,
    scenes=(WebScene(DUEL.name, DUEL_COMMANDS, _load, project_duels, "duel", duels_audience),),
    characters=FIGHTERS,
    routes=RULE_ROUTES,
    errors=ERRORS,
    refusals=(DuelError,),
    module="systems/duel/index.js",
    receipts=ReceiptCheck(verify.PATTERN, verify.data),
)

__all__ = ["DUEL_WEB"]
