"""Who shares a view of a SWADE scene: the keys of `WebScene.audience`, read off the rules of
projection.py. A viewer's JSON there depends on the viewer only through «is the GM» (every
sheet, every chase participant's stats) and «owns this character / controls this
participant» (`mine`, that one's sheet or stats). So the GM has a view of their own, so has
every other viewer who owns something in the scene, and everyone else — players who own
nothing, spectators — shares one public view. tests/webapp/systems/savage/test_audience.py
checks that viewers with equal keys get equal JSON."""

from __future__ import annotations

from collections.abc import Hashable

from webapp.projection import GM, Viewer
from webapp.systems.savage.projection import ChaseScene, EncounterScene

PUBLIC = "public"


def encounter_audience(scene: EncounterScene | None, viewer: Viewer) -> Hashable:
    if scene is None:
        return None  # nothing open: null for everybody
    if viewer.role == GM:
        return (GM, viewer.user_id)
    owns = any(m.owner == viewer.user_id for c in scene.state.combatants for m in c.members)
    return ("owner", viewer.user_id) if owns else PUBLIC


def chase_audience(scene: ChaseScene | None, viewer: Viewer) -> Hashable:
    if scene is None:
        return None
    if viewer.role == GM:
        return (GM, viewer.user_id)
    owns = any(viewer.user_id in owners for owners in scene.owners.values())
    return ("owner", viewer.user_id) if owns else PUBLIC
