"""Every inline-button payload of the bot, as typed CallbackData (one module, unique prefixes)."""

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


class CombatCallback(CallbackData, prefix="cmb"):
    """A button on the initiative board. ``seq``: the encounter event the board showed
    (a press on an outdated board is refused); ``action``: next, hold, act, interrupt,
    undo, soak, take."""

    action: str
    game_id: int
    seq: int


class BennyRerollCallback(CallbackData, prefix="brr"):
    """«🎲 Бенни: перебросить» under a combat roll: a benny re-rolls ``character``'s last
    trait roll. ``step``: the encounter step that made (or last re-rolled) it — a press
    after that roll was replaced or closed is refused. The engine checks who may press
    (the owner; the GM for NPCs)."""

    game_id: int
    step: int
    character: str


class ChaseCallback(CallbackData, prefix="chs"):
    """A button on the chase row: ``action`` undo, bump (``arg`` = "pending,dir,cards")
    or crit (``arg`` = "pending,choice"); the separator is ``bot.render.chase.ARG_SEP``."""

    action: str
    game_id: int
    seq: int
    arg: str = ""
