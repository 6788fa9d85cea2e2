"""Who shares a view of a SWADE scene: the keys of `WebScene.audience`, from the engine's
observation functions (engine/savage/observe.py, engine/savage/chase/observe.py). A viewer's
JSON there depends on the viewer only through «is the GM» (every sheet, every chase
participant's stats) and «owns this character / controls this participant» (`mine`, that
one's sheet or stats). So the GM has a view of their own, so has
every other viewer who owns something in the scene, and everyone else — players who own
nothing, spectators — shares one public view. tests/webapp/systems/savage/test_audience.py
checks that viewers with equal keys get equal JSON."""

from __future__ import annotations

from collections.abc import Hashable

from engine.savage.chase.observe import chase_audience as observed_chase
from engine.savage.observe import encounter_audience as observed_encounter
from webapp.projection import Viewer
from webapp.systems.savage.projection import ChaseScene, EncounterScene


def encounter_audience(scene: EncounterScene | None, viewer: Viewer) -> Hashable:
    if scene is None:
        return None  # nothing open: null for everybody
    return observed_encounter(scene.state, viewer)


def chase_audience(scene: ChaseScene | None, viewer: Viewer) -> Hashable:
    if scene is None:
        return None
    return observed_chase(scene.owners, viewer)
