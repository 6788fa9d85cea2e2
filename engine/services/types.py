"""Plain frozen results of the services (never ORM objects)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class UserInfo:
    id: int
    first_name: str
    username: str | None
    language: str | None
    bot_started: bool


@dataclass(frozen=True)
class GameInfo:
    id: int
    chat_id: int
    topic_id: int | None  # None = the chat has no forum topic
    system: str
    name: str
    gm_id: int | None
    player_ids: tuple[int, ...]  # players only, the GM is not repeated here
    created_at: datetime
    chat_title: str | None
    active: bool = True
    # The game's own settings (`games.options`: what each system keeps there, e.g. the quiet
    # chat), read with the game so that a step needs no statement for them.
    options: dict[str, Any] = field(default_factory=dict, hash=False)

    def is_member(self, user_id: int) -> bool:
        return user_id == self.gm_id or user_id in self.player_ids


@dataclass(frozen=True)
class EventInfo:
    game_id: int
    seq: int
    type: str
    payload: dict[str, Any]
    created_at: datetime


@dataclass(frozen=True)
class RollRecord:
    id: int
    user_id: int
    chat_id: int
    topic_id: int | None
    game_id: int | None
    command: str
    args: str
    result: dict[str, Any]
    hidden: bool
    salt: str | None
    receipt: str | None
    created_at: datetime
    revealed_at: datetime | None
