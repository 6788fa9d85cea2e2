"""Telegram users: upsert on every update, onboarding flag, interface language."""

from __future__ import annotations

from typing import Any

from tortoise.exceptions import IntegrityError

from engine.services.errors import NoUser
from engine.services.types import UserInfo
from engine.store.models import User


def _info(user: User) -> UserInfo:
    return UserInfo(
        id=user.id,
        first_name=user.first_name,
        username=user.username,
        language=user.language,
        bot_started=user.bot_started,
    )


async def touch_user(user_id: int, first_name: str, username: str | None = None) -> UserInfo:
    """Create the user or refresh the name Telegram just sent us."""
    first_name = first_name[:255]
    user = await User.get_or_none(id=user_id)
    if user is None:
        try:
            user = await User.create(id=user_id, first_name=first_name, username=username)
            return _info(user)
        except IntegrityError:  # created concurrently by another update of the same user
            user = await User.get(id=user_id)
    if (user.first_name, user.username) != (first_name, username):
        user.first_name, user.username = first_name, username
        await user.save(update_fields=["first_name", "username"])
    return _info(user)


async def get_user(user_id: int) -> UserInfo | None:
    user = await User.get_or_none(id=user_id)
    return _info(user) if user else None


async def mark_bot_started(user_id: int) -> None:
    """The user opened the private chat (/start): the bot may now write to them first."""
    if not await User.filter(id=user_id).update(bot_started=True):
        raise NoUser(user_id=user_id)


async def set_language(user_id: int, lang: str | None) -> None:
    if not await User.filter(id=user_id).update(language=lang):
        raise NoUser(user_id=user_id)


async def get_language(user_id: int) -> str | None:
    rows: list[Any] = await User.filter(id=user_id).values_list("language", flat=True)
    return rows[0] if rows else None


async def require_user(user_id: int) -> None:
    if not await User.exists(id=user_id):
        raise NoUser(user_id=user_id)
