"""Every shared inline-button payload of the bot, as typed CallbackData (unique prefixes); a
rule system's buttons are in its own package (bot/systems/<code>/callbacks.py)."""

from __future__ import annotations

from aiogram.filters.callback_data import CallbackData


class RerollCallback(CallbackData, prefix="rr"):
    """«Перебросить» under a roll result; only the original roller may use it."""

    roll_id: int


class RevealCallback(CallbackData, prefix="rv"):
    """«Раскрыть» on the GM's private copy of a hidden roll."""

    roll_id: int


class PickGameCallback(CallbackData, prefix="pg"):
    """Choose the game that private rolls go to (0 = none, rolls stay open)."""

    game_id: int


class HelpCallback(CallbackData, prefix="hlp"):
    """A section button under /help (``section``: a key of bot.render.help.help_sections)."""

    section: str
