"""The audience keys of the SWADE scenes (webapp/systems/savage/audience.py) group viewers
exactly as projection.py tells them apart: equal keys, equal JSON; the GM, every owner and
the public are told apart."""

from __future__ import annotations

import dataclasses
import itertools
import random

from engine import savage
from engine.services import join_game, touch_user
from engine.services.savage import encounter_command
from tests.webapp.conftest import GM_ID, OTHER_ID, PLAYER_ID, STRANGER_ID
from tests.webapp.systems.savage.fight import make_fight
from webapp.projection import Viewer, role_of
from webapp.systems.registry import adapter
from webapp.systems.savage.scenes import load_chase, load_encounter

NOBODY = 3001  # a player who owns nothing


async def test_equal_keys_mean_equal_projections_and_the_views_are_four(db):
    game = await make_fight(chase_too=True)
    await touch_user(NOBODY, "Вера")
    game = await join_game(game.id, NOBODY)
    await encounter_command(game.id, savage.NextTurn(), actor_id=GM_ID, rng=random.Random(1))
    encounter = await load_encounter(game.id)
    scenes = {"encounter": encounter, "chase": await load_chase(game.id, encounter)}
    users = [GM_ID, PLAYER_ID, OTHER_ID, NOBODY, STRANGER_ID, STRANGER_ID + 1]
    viewers = [Viewer(uid, role_of(game, uid), game, "t") for uid in users]
    # the same users with another role (after a GM transfer): the GM's view is the role's
    demoted = dataclasses.replace(viewers[0], role="player")
    system = adapter("savage")
    for kind, data in scenes.items():
        scene = system.scene(kind)
        assert scene is not None and data is not None
        keys = {v.user_id: scene.audience(data, v) for v in viewers}
        for a, b in itertools.combinations([*viewers, demoted], 2):
            if scene.audience(data, a) == scene.audience(data, b):
                assert scene.project(data, a) == scene.project(data, b), (kind, a, b)
        # Ичиго's and Рукия's owners see their own; a player owning nothing is the public
        assert len({keys[GM_ID], keys[PLAYER_ID], keys[OTHER_ID], keys[NOBODY]}) == 4
        assert keys[NOBODY] == keys[STRANGER_ID] == keys[STRANGER_ID + 1]
        assert scene.project(data, viewers[0]) != scene.project(data, viewers[4])
        assert scene.audience(None, viewers[0]) == scene.audience(None, viewers[4])
