"""The forum duel in the chat: dice only so far (`/d` is the shared dice router's); its
sealed turns come with their own issue."""

from __future__ import annotations

from aiogram.utils.i18n import gettext as _

from bot.systems.registry import ChatSystem


def title() -> str:
    return _("Forum duel")


CHAT = ChatSystem(code="duel", aliases=("дуэль", "дуэли"), title=title)
