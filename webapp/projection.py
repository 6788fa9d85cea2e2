"""Per-viewer projections (DESIGN decision 3): what one viewer may see of a game and its rolls.

A hidden roll not yet revealed is *sealed* for everyone but its roller and the GM: only the
receipt, the roller and the time leave the server — no arguments, no comment, no result."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from engine.dice.commands import BY_CODE
from engine.services.types import GameInfo, RollRecord

GM, PLAYER, SPECTATOR = "gm", "player", "spectator"
ROLES = (GM, PLAYER, SPECTATOR)


@dataclass(frozen=True, slots=True)
class Viewer:
    user_id: int
    role: str  # GM | PLAYER | SPECTATOR
    game: GameInfo
    game_token: str
    screen: str | None = None
    locale: str = "ru"


def role_of(game: GameInfo, user_id: int) -> str:
    if user_id == game.gm_id:
        return GM
    if user_id in game.player_ids:
        return PLAYER
    return SPECTATOR


def iso(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def can_see(record: RollRecord, user_id: int, gm_id: int | None) -> bool:
    if not record.hidden or record.revealed_at is not None:
        return True
    return user_id == record.user_id or (gm_id is not None and user_id == gm_id)


def project_roll(
    record: RollRecord, *, user_id: int, gm_id: int | None, names: dict[int, str]
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": record.id,
        "user": {"id": record.user_id, "name": names.get(record.user_id, "?")},
        "hidden": record.hidden,
        "created_at": iso(record.created_at),
    }
    if record.hidden:
        out["receipt"] = record.receipt
        out["revealed_at"] = iso(record.revealed_at)
    if not can_see(record, user_id, gm_id):
        out["sealed"] = True
        return out
    out["sealed"] = False
    found = BY_CODE.get(record.command)  # the roll log's code -> the API's name
    out["command"] = found.name if found is not None else record.command
    out["args"] = record.args
    out["result"] = record.result
    if record.hidden and record.revealed_at is not None:
        out["salt"] = record.salt  # with the content, anyone can now check the receipt
    return out


def project_game(viewer: Viewer, names: dict[int, str]) -> dict[str, Any]:
    game = viewer.game

    def person(uid: int | None) -> dict[str, Any] | None:
        return None if uid is None else {"id": uid, "name": names.get(uid, "?")}

    return {
        "token": viewer.game_token,
        "id": game.id,
        "name": game.name,
        "system": game.system,
        "chat_title": game.chat_title,
        "active": game.active,
        "gm": person(game.gm_id),
        "players": [person(uid) for uid in game.player_ids],
        "role": viewer.role,
        "screen": viewer.screen,
    }
