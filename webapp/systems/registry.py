"""The web adapters of the rule systems: what the Mini App serves for a game of each system.

A system's adapter (its package webapp/systems/<code>/, registered by one line in
webapp/systems/installed.py) names its code — a rule system installed in the engine
(engine/services/systems.py) — and per scene kind of that system: the board commands (`Spec`s,
webapp/systems/commands.py), how to read the scene once for all viewers, the per-viewer
projection, who shares a view of it (`audience`) and the notifier topic that announces
its changes; its character editor's handlers if it has one; its engines' refusal codes;
routes of its own (`Route`); the page's module of its screens (a path under
webapp/static/app/, which app/systems/index.js maps the code to). The shared routes
(webapp/api/scenes.py, webapp/api/characters.py, webapp/api/routes.py), the live snapshot
(webapp/feed.py), the socket (webapp/api/ws.py) and the notifier bridge (webapp/bridge.py)
read everything here and never name a system. A game of an installed system without an
adapter has the dice roller only.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from aiohttp import web

from engine.errors import CodedError
from engine.services import systems
from webapp.errors import register_errors
from webapp.projection import Viewer
from webapp.systems.commands import Spec

Handler = Callable[[web.Request, Viewer], Awaitable[web.StreamResponse]]
# (game id, the scenes of the game read before this one for the same answer, by kind) ->
# the scene as read for every viewer, or None when none is open
T = TypeVar("T")  # a scene kind's scene as read (None among its values: none open)

Load = Callable[[int, Mapping[str, Any]], Awaitable[T]]
# (what `load` read, the viewer) -> the viewer's JSON, or None
Project = Callable[[T, Viewer], dict[str, Any] | None]
# (what `load` read, the viewer) -> a key equal for viewers to whom `project` gives the same
# JSON: a live push is projected and encoded once per key
Audience = Callable[[T, Viewer], Hashable]


def per_user(scene: object, viewer: Viewer) -> Hashable:
    """The audience when a system says nothing: every user (in their role) a view of their own."""
    return (viewer.role, viewer.user_id)


@dataclass(frozen=True)
class WebScene(Generic[T]):
    """One scene kind as the web app serves it. `kind` is the engine's scene kind: the route
    ``/api/games/{token}/<kind>``, the key in the live snapshot and the type of its pushes."""

    kind: str
    commands: Mapping[str, Spec[Any]] = field(repr=False)
    load: Load[T]
    project: Project[T]
    topic: str  # the engine.services.notify topic of its changes
    audience: Audience[T] = per_user


@dataclass(frozen=True)
class CharacterRoutes:
    """The character editor of a system (``/api/games/{token}/characters…``, GM and players;
    the shared routes check the role first): each handler gets ``(request, viewer)``."""

    library: Handler  # GET  .../characters
    get: Handler  # GET  .../characters/{char_id}
    save: Handler  # POST .../characters
    preview: Handler  # POST .../characters/preview
    delete: Handler  # DELETE .../characters/{char_id}


@dataclass(frozen=True)
class Route:
    """A route of a system's own, ``/api/games/{token}/<path>`` (webapp/api/routes.py): the
    roles it allows are checked first, and a game of another system is 409 ``wrong_system``
    unless the route serves `every_game` (its dice, which any game may roll). The handler
    gets ``(request, viewer)``."""

    method: str
    path: str
    handler: Handler
    roles: tuple[str, ...]
    every_game: bool = False


@dataclass(frozen=True)
class ReceiptCheck:
    """A system's own receipts, checked on the hidden rolls' page (webapp/receipts.py): its
    tokens match `pattern` at ``/verify/{token}``, and `data` answers ``/verify/{token}.json``."""

    pattern: str
    data: Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass(frozen=True)
class WebSystem:
    code: str
    scenes: tuple[WebScene[Any], ...] = ()
    characters: CharacterRoutes | None = None
    routes: tuple[Route, ...] = ()
    # code -> (HTTP status, English msgid): the refusals of the system's engines and services
    errors: Mapping[str, tuple[int, str]] = field(default_factory=dict, repr=False)
    # exception types of its engines that carry a stable `code` and `params` (the services'
    # ServiceError is always caught): a command refused by one is answered with its code
    refusals: tuple[type[CodedError], ...] = ()
    module: str | None = None  # the page's module of its screens, under webapp/static/app/
    receipts: ReceiptCheck | None = None

    def scene(self, kind: str) -> WebScene[Any] | None:
        return next((s for s in self.scenes if s.kind == kind), None)


_SYSTEMS: dict[str, WebSystem] = {}
_TOPICS: dict[str, WebScene[Any]] = {}


def register(adapter: WebSystem) -> WebSystem:
    """Install the web adapter of an installed rule system (once per code)."""
    if adapter.code in _SYSTEMS:
        raise ValueError(f"the web adapter of {adapter.code!r} is registered already")
    if adapter.code not in systems.codes():
        raise ValueError(f"{adapter.code!r} is not an installed rule system")
    kinds = {kind.name for kind in systems.scene_kinds(adapter.code)}
    seen: set[str] = set()
    for scene in adapter.scenes:
        if scene.kind not in kinds or scene.kind in seen:
            raise ValueError(f"{adapter.code!r} has no scene kind {scene.kind!r} (or it is twice)")
        if scene.topic in _TOPICS:
            raise ValueError(f"the notifier topic {scene.topic!r} is another scene's already")
        seen.add(scene.kind)
    register_errors(dict(adapter.errors))
    _SYSTEMS[adapter.code] = adapter
    for scene in adapter.scenes:
        _TOPICS[scene.topic] = scene
    return adapter


def adapter(code: str) -> WebSystem:
    """The web adapter of a game's system: a bare one (dice only) when it has none."""
    return _SYSTEMS.get(code) or WebSystem(code)


def adapters() -> tuple[WebSystem, ...]:
    return tuple(_SYSTEMS.values())


def scene_kinds() -> tuple[str, ...]:
    """Every scene kind some registered system serves (the shared routes match these)."""
    return tuple(scene.kind for system in _SYSTEMS.values() for scene in system.scenes)


def scene_of_topic(topic: str) -> WebScene[Any] | None:
    """The scene whose changes a notifier topic announces (None: not a scene's topic)."""
    return _TOPICS.get(topic)
