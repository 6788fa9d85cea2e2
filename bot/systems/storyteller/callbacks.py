"""The Storyteller buttons' payloads, as typed CallbackData (prefixes unique over the bot)."""

from __future__ import annotations

from aiogram.filters.callback_data import CallbackData


class FightCallback(CallbackData, prefix="stf"):
    """A button on the initiative board: ``action`` init, delay, yield, done, undo; ``seq``
    the fight event the board showed (a press on an outdated board is refused)."""

    action: str
    game_id: int
    seq: int


class ReviewCallback(CallbackData, prefix="str"):
    """A button of the GM's private proposal: ``action`` publish, drop, diff, dice, defense,
    damage; ``arg`` the change (+1, -1, a defense or damage type code); ``seq`` the fight
    event the proposal was shown at."""

    action: str
    game_id: int
    seq: int
    arg: str = ""


class OptionsCallback(CallbackData, prefix="sto"):
    """A button of /options: ``view`` the message shows (all, heal, aim); ``reset`` the GM
    puts that table back to its default."""

    game_id: int
    view: str
    reset: bool = False
