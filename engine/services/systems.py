"""The registry of rule systems: what a game can play, and the scene kinds of each.

A rule system has a code (stored with every game and library character), an English name
(adapters translate it) and its scene kinds: the event-sourced streams a game of that
system runs (a fight, a pursuit, a sealed exchange…). A scene kind brings its aggregate (decide is
the system's own; evolve, state and event codecs are the aggregate's) and the errors that
say a game has none open or one already; and its roll commands, which any chat may use. The
shared services read what they need here and never name a system; a system registers itself
in engine/services/installed.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.dice import commands as roll_commands
from engine.dice.commands import RollCommand
from engine.services.aggregates.model import Aggregate, register_aggregate
from engine.services.errors import SceneActive, ServiceError, UnknownScene, WrongSystem
from engine.services.notify import add_topic


@dataclass(frozen=True)
class SceneKind:
    """One kind of scene: its aggregate's name is the kind (stream keys "<kind>:<n>")."""

    aggregate: Aggregate[Any, Any]
    missing: Callable[..., ServiceError]  # raised (with params) when the game has none open
    active: Callable[..., ServiceError] = SceneActive  # … when one is open already

    @property
    def name(self) -> str:
        return self.aggregate.name


@dataclass(frozen=True)
class RuleSystem:
    code: str  # stored with games and characters: at most 16 characters
    name: str
    scenes: tuple[SceneKind, ...] = ()
    # what a new game's `options` start with (a system's readings whose default changed: kept
    # on the game, so a later change of the default never changes a game already running)
    new_game_options: Callable[[], dict[str, Any]] = dict
    # its roll commands (engine/dice/commands.py): every chat may roll them, any game
    rolls: tuple[RollCommand, ...] = ()


_SYSTEMS: dict[str, RuleSystem] = {}
_SCENES: dict[str, tuple[RuleSystem, SceneKind]] = {}


def register(system: RuleSystem) -> RuleSystem:
    """Install a rule system (once; its scene kinds' names are unique over all systems)."""
    if system.code in _SYSTEMS:
        raise ValueError(f"rule system {system.code!r} is registered already")
    for scene in system.scenes:
        if scene.name in _SCENES:
            raise ValueError(f"scene kind {scene.name!r} is registered already")
    roll_commands.register(*system.rolls)  # first: it refuses a word in use, adding none
    _SYSTEMS[system.code] = system
    for scene in system.scenes:
        register_aggregate(scene.aggregate)
        add_topic(scene.name)
        _SCENES[scene.name] = (system, scene)
    return system


def codes() -> tuple[str, ...]:
    """The codes of the installed systems, in the order they were registered."""
    return tuple(_SYSTEMS)


def system(code: str) -> RuleSystem:
    found = _SYSTEMS.get(code)
    if found is None:
        raise WrongSystem(system=code, allowed=list(_SYSTEMS))
    return found


def scene_kind(kind: str) -> SceneKind:
    if kind not in _SCENES:
        raise UnknownScene(kind=kind)
    return _SCENES[kind][1]


def system_of_scene(kind: str) -> RuleSystem:
    if kind not in _SCENES:
        raise UnknownScene(kind=kind)
    return _SCENES[kind][0]


def scene_kinds(code: str | None = None) -> tuple[SceneKind, ...]:
    """The scene kinds of one system, or of every installed system."""
    if code is not None:
        return system(code).scenes
    return tuple(scene for _, scene in _SCENES.values())
