"""A game's options set by its GM (one `game_settings` row per game, absent = defaults).

Today one option: the time zone in which the chat tells times (hidden-roll notices);
Moscow by default, the zone most Russian-speaking groups expect."""

from __future__ import annotations

from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from tortoise.transactions import in_transaction

from engine.services.aggregates.sql import sql
from engine.services.errors import BadTimeZone, NoGame, NotGm
from engine.store.models import ROLE_GM, Game, GameSettings, Role

DEFAULT_TIME_ZONE = "Europe/Moscow"


def zone_of(name: str) -> ZoneInfo:
    """The IANA zone named `name` (case-insensitive); BadTimeZone otherwise."""
    wanted = name.strip()
    exact = {zone.lower(): zone for zone in available_timezones()}.get(wanted.lower())
    try:
        return ZoneInfo(exact or wanted)
    except (ZoneInfoNotFoundError, ValueError) as error:
        raise BadTimeZone(zone=wanted[:40]) from error


_TIME_ZONE = "SELECT time_zone FROM game_settings WHERE game_id = ?"


async def time_zone(game_id: int | None) -> ZoneInfo:
    """The game's zone (the default for no game or no choice). One plain statement: it is
    read for every hidden roll's notice, where the ORM's query building cost more."""
    name = None
    if game_id is not None:
        conn = GameSettings._meta.db
        _, rows = await conn.execute_query(sql(conn, _TIME_ZONE), [game_id])
        name = rows[0][0] if rows else None
    return ZoneInfo(str(name or DEFAULT_TIME_ZONE))


async def set_time_zone(game_id: int, *, actor_id: int, name: str) -> ZoneInfo:
    """The GM chooses the game's zone (BadTimeZone, NotGm, NoGame)."""
    zone = zone_of(name)
    async with in_transaction():
        if not await Game.exists(id=game_id):
            raise NoGame(game_id=game_id)
        if not await Role.exists(game_id=game_id, user_id=actor_id, role=ROLE_GM):
            raise NotGm(game_id=game_id)
        updated = await GameSettings.filter(game_id=game_id).update(time_zone=zone.key)
        if not updated:
            await GameSettings.create(game_id=game_id, time_zone=zone.key)
    return zone
