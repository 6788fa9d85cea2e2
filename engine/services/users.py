"""Telegram users: upsert on every update, onboarding flag, interface language.

Every update touches its sender, and a hidden roll or a board names other users, so the
rows this process read or wrote lately are kept in memory (`_Recent`: at most `RECENT`
users, each for `FRESH_S` seconds): an update whose sender's name is unchanged costs no
statement, nor does naming a user seen lately. This process's writes update the memory at
once; another worker's change of a user (their language, the onboarding flag) is seen here
within `FRESH_S`.
"""

from __future__ import annotations

import time
from collections import OrderedDict

from tortoise.context import get_current_context
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


RECENT = 10_000
FRESH_S = 60.0


class _Recent:
    """The users this process saw lately, for the open database they belong to."""

    def __init__(self) -> None:
        self.users: OrderedDict[int, tuple[float, UserInfo]] = OrderedDict()
        self.owner: object | None = None

    def _mine(self) -> None:
        context = get_current_context()
        if context is not self.owner:  # another database (tests): nothing carries over
            self.users.clear()
            self.owner = context

    def get(self, user_id: int) -> UserInfo | None:
        self._mine()
        found = self.users.get(user_id)
        if found is None or time.monotonic() - found[0] > FRESH_S:
            return None
        return found[1]

    def put(self, info: UserInfo) -> UserInfo:
        self._mine()
        self.users[info.id] = (time.monotonic(), info)
        self.users.move_to_end(info.id)
        if len(self.users) > RECENT:
            self.users.popitem(last=False)
        return info

    def forget(self, user_id: int) -> None:
        self.users.pop(user_id, None)


_recent = _Recent()


async def touch_user(user_id: int, first_name: str, username: str | None = None) -> UserInfo:
    """Create the user or refresh the name Telegram just sent us."""
    first_name = first_name[:255]
    known = _recent.get(user_id)
    if known is not None and (known.first_name, known.username) == (first_name, username):
        return known
    user = await User.get_or_none(id=user_id)
    if user is None:
        try:
            user = await User.create(id=user_id, first_name=first_name, username=username)
            return _recent.put(_info(user))
        except IntegrityError:  # created concurrently by another update of the same user
            user = await User.get(id=user_id)
    if (user.first_name, user.username) != (first_name, username):
        user.first_name, user.username = first_name, username
        await user.save(update_fields=["first_name", "username"])
    return _recent.put(_info(user))


async def get_user(user_id: int) -> UserInfo | None:
    """The user as this process saw them lately (see the module), else as stored."""
    known = _recent.get(user_id)
    if known is not None:
        return known
    user = await User.get_or_none(id=user_id)
    return _recent.put(_info(user)) if user else None


async def mark_bot_started(user_id: int) -> None:
    """The user opened the private chat (/start): the bot may now write to them first."""
    updated = await User.filter(id=user_id).update(bot_started=True)
    _recent.forget(user_id)
    if not updated:
        raise NoUser(user_id=user_id)


async def set_language(user_id: int, lang: str | None) -> None:
    updated = await User.filter(id=user_id).update(language=lang)
    _recent.forget(user_id)
    if not updated:
        raise NoUser(user_id=user_id)


async def get_language(user_id: int) -> str | None:
    user = await get_user(user_id)
    return user.language if user else None


async def require_user(user_id: int) -> None:
    if not await User.exists(id=user_id):
        raise NoUser(user_id=user_id)
