"""The registry of rule systems: what a game can play, and the scene kinds of each.

A rule system has a code (stored with every game and library character), an English name
(adapters translate it) and its scene kinds: the event-sourced streams a game of that
system runs (a fight, a pursuit, a sealed exchange…). A scene kind brings its aggregate (evolve,
state and event codecs), the errors that say a game has none open or one already, and what
the one scene service (engine/services/scene_service.py) asks of the system: its decide of a
command, who may send what, the other scenes' steps a step causes; a system brings its roll
commands too, which any chat may use. The shared services read what they need here and never
name a system; a system registers itself in engine/services/installed.py.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from engine.dice import commands as roll_commands
from engine.dice.commands import RollCommand
from engine.services.aggregates.model import Aggregate, register_aggregate
from engine.services.errors import NoScene, SceneActive, ServiceError, UnknownScene, WrongSystem
from engine.services.notify import add_topic

if TYPE_CHECKING:
    from engine.dice.rng import Rng
    from engine.services.aggregates.unit import Unit
    from engine.services.scene_service import Turn
    from engine.services.scenes import Caused

S = TypeVar("S")  # a scene kind's state
E = TypeVar("E")  # its events
C = TypeVar("C")  # its commands

# (the command in its unit, on the state read there) -> its events, and the state after them
# when the decision has it (else they are folded); its type arguments: state, command, event
Decide = Callable[["Turn[S, C]"], Awaitable[tuple[tuple[E, ...], S | None]]]
# (unit, a player's command) -> None, or the refusal of what the player may not send
Check = Callable[["Unit", C], Awaitable[None]]
# (unit, key, step, events, state after, rng, state before) -> the steps caused elsewhere
Follow = Callable[
    ["Unit", str, "int | None", tuple[E, ...], S, "Rng", S | None],
    Awaitable[tuple["Caused", ...]],
]
# (unit, key, the undone step) -> what was undone elsewhere with it
FollowUndo = Callable[["Unit", str, int], Awaitable["Caused | None"]]
# (unit, the new scene's key, the GM's opening command) -> the new scene's stream params.
# Any: the opening command is one of the kind's commands, often a narrower type than `C`
# (a kind that opens with one command class and decides a union of several), which a hook
# type cannot say.
Opens = Callable[["Unit", str, Any], Awaitable[Mapping[str, Any]]]


def _no_note(key: str) -> Mapping[str, Any]:
    return {}


@dataclass(frozen=True)
class SceneKind(Generic[S, E, C]):
    """One kind of scene: its aggregate's name is the kind (stream keys "<kind>:<n>"); its
    hooks are checked against the aggregate's state and events, and against one another's
    commands, where it is registered."""

    aggregate: Aggregate[S, E]
    # raised (with params) when the game has none open; when one is open already
    missing: Callable[..., ServiceError] = NoScene
    active: Callable[..., ServiceError] = SceneActive
    decide: Decide[S, C, E] | None = None  # None: its commands are the system's own services'
    # the engine's command types (a command of another is a TypeError)
    commands: type | tuple[type, ...] | None = None
    check: Check[C] | None = None  # a player's command, before the scene is read
    follow: Follow[E, S] | None = None
    follow_undo: FollowUndo | None = None
    start_params: Callable[[int], Awaitable[Mapping[str, Any]]] | None = None  # (game id)
    note: Callable[[str], Mapping[str, Any]] = _no_note  # a step's note's own fields (key)
    # Several open at once, one per scope (a forum topic, say): a scope's key prefix; a
    # command or an undo names its scope and acts on that scope's newest open scene.
    scope: Callable[[Any], str] | None = None
    # A scene that opens with a first step (`scene_service.open_scene`): its params, from
    # the opening command as the kind's `decide` gets it, read with the game's lock.
    opens: Opens | None = None
    # A scene whose state is over: it stays open to read, and a new one (of its scope)
    # starts beside it (None: an open scene keeps a new one from starting until it is closed).
    over: Callable[[S], bool] | None = None

    @property
    def name(self) -> str:
        return self.aggregate.name


@dataclass(frozen=True)
class RuleSystem:
    code: str  # stored with games and characters: at most 16 characters
    name: str
    scenes: tuple[SceneKind[Any, Any, Any], ...] = ()
    # what a new game's `options` start with (a system's readings whose default changed: kept
    # on the game, so a later change of the default never changes a game already running)
    new_game_options: Callable[[], dict[str, Any]] = dict
    # its roll commands (engine/dice/commands.py): every chat may roll them, any game
    rolls: tuple[RollCommand, ...] = ()


_SYSTEMS: dict[str, RuleSystem] = {}
_SCENES: dict[str, tuple[RuleSystem, SceneKind[Any, Any, Any]]] = {}


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


def scene_kind(kind: str) -> SceneKind[Any, Any, Any]:
    if kind not in _SCENES:
        raise UnknownScene(kind=kind)
    return _SCENES[kind][1]


def system_of_scene(kind: str) -> RuleSystem:
    if kind not in _SCENES:
        raise UnknownScene(kind=kind)
    return _SCENES[kind][0]


def scene_kinds(code: str | None = None) -> tuple[SceneKind[Any, Any, Any], ...]:
    """The scene kinds of one system, or of every installed system."""
    if code is not None:
        return system(code).scenes
    return tuple(scene for _, scene in _SCENES.values())
