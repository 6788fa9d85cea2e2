"""The Storyteller d10-pool system in the chat: dice only so far (`/p` is the shared dice
router's); its fights come with their own issue."""

from __future__ import annotations

from aiogram.utils.i18n import gettext as _

from bot.systems.registry import ChatSystem


def title() -> str:
    return _("Storyteller (d10 pools)")


CHAT = ChatSystem(
    code="storyteller",
    aliases=("сказитель", "wod", "рассказчик", "мт", "мир-тьмы", "st"),
    title=title,
)
