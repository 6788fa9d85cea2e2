"""A Storyteller game's options (the readings and the default tables of
`engine.storyteller.options`), kept in the game's `options` under "storyteller": only the
fields a GM changed, so a later default reaches the games that never touched it.

Every new fight starts from the game's options (the fight stream's params, fights.py) and
keeps that copy: see docs/rules/storyteller.md «Options». A change is announced on the
game's topic, so the open Mini App pages take a fresh snapshot.
"""

from __future__ import annotations

from typing import Any

from engine.services.errors import NoGame
from engine.services.games import change_options
from engine.services.scenes import require_system
from engine.services.storyteller.code import CODE
from engine.services.types import GameInfo
from engine.store.models import Game
from engine.storyteller.options import DEFAULT_OPTIONS, Options

KEY = "storyteller"


def options_from(stored: object) -> Options:
    """The options a stored dict means (missing fields: the defaults; junk: the defaults)."""
    if not isinstance(stored, dict) or not stored:
        return DEFAULT_OPTIONS
    try:
        return Options.from_dict(stored)
    except ValueError:
        return DEFAULT_OPTIONS


def game_options(game: GameInfo) -> Options:
    """From the game as loaded with the step or the command: no statement of its own."""
    return options_from(game.options.get(KEY))


def changed_fields(options: Options) -> dict[str, Any]:
    """What differs from the defaults, as stored."""
    data, base = options.to_dict(), DEFAULT_OPTIONS.to_dict()
    return {k: v for k, v in data.items() if base.get(k) != v}


async def load_options(game_id: int) -> Options:
    row = await Game.filter(id=game_id).first().values_list("options", flat=True)
    if row is None and not await Game.exists(id=game_id):
        raise NoGame(game_id=game_id)
    return options_from((row or {}).get(KEY) if isinstance(row, dict) else None)


async def set_options(game_id: int, options: Options, *, actor_id: int) -> Options:
    """The GM sets the game's options for the fights it starts from now on (a player is
    refused with `not_gm`, another system's game with `wrong_system`). Open boards take a
    fresh snapshot (the running fight keeps its copy; the board tells the GM the game's now
    differ)."""
    await require_system(game_id, CODE)
    changed = changed_fields(options)
    await change_options(game_id, KEY, lambda _: changed or None, actor_id=actor_id)
    return options
