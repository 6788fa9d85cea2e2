"""The table's per-game settings of a Savage Worlds game, kept in the game's `options`
(migration 0008): «тихий режим» (quiet) — the chat keeps only the board and the results of
actions, no round headers or turn pings; who sets the light and The Drop
(`engine.savage.authority.Table`: the GM unless the GM lets the players)."""

from __future__ import annotations

from engine import savage
from engine.services.games import change_options
from engine.services.types import GameInfo

QUIET = "quiet"
PLAYERS_SET_SCENE = "players_set_scene"


def table_of(game: GameInfo) -> savage.Table:
    """The game's `Table`, from the game as loaded with the step or the command."""
    return savage.Table(players_set_scene=bool(game.options.get(PLAYERS_SET_SCENE, False)))


async def set_players_set_scene(game_id: int, on: bool, *, actor_id: int) -> None:
    """The GM lets the players declare the light and The Drop, or takes them back
    (a player is refused with `not_gm`)."""
    await _set(game_id, PLAYERS_SET_SCENE, on, actor_id=actor_id)


def quiet_mode(game: GameInfo) -> bool:
    """Read from the game as loaded with the step or the command: no statement of its own."""
    return bool(game.options.get(QUIET, False))


async def set_quiet_mode(game_id: int, on: bool, *, actor_id: int) -> None:
    """The GM turns the quiet chat on or off (a player is refused with `not_gm`)."""
    await _set(game_id, QUIET, on, actor_id=actor_id)


async def _set(game_id: int, key: str, on: bool, *, actor_id: int) -> None:
    await change_options(game_id, key, lambda _: on, actor_id=actor_id)
