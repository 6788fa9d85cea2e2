"""The duel's buttons' payloads, as typed CallbackData (prefixes unique over the bot:
bot/callbacks.py holds the shared ones; savage's are cmb, brr, chs)."""

from __future__ import annotations

from aiogram.filters.callback_data import CallbackData


class DuelFormCallback(CallbackData, prefix="dlf"):
    """A button of a fighter's submission form in the DM. ``turn``: the turn the form is
    for (a press after the turn moved on is refused); ``draft``: the actions declared so far
    (bot/systems/duel/draft.py); ``stage`` 0 while actions are added, 1 for the AP; ``op``:
    what the button does (``+<action>``, ``ap+<i>``, ``ap-<i>``, ``dm+<i>``, ``dm-<i>``,
    ``ez+<i>``, ``ez-<i>``, ``next``, ``reset``, ``send``)."""

    op: str
    game_id: int
    thread: int
    fighter: str
    turn: int
    stage: int = 0
    draft: str = ""


class DuelReviewCallback(CallbackData, prefix="dlr"):
    """A button of the GM's review in the DM. ``op``: ``publish``, ``undo``, ``remind``,
    ``roll`` (pick a d10 face for ``fighter``'s action ``action``, check ``check``), ``hp``
    (pick ``fighter``'s HP after the turn), ``why`` (``field`` set to ``value`` with the
    preset reason ``reason``), ``back``."""

    op: str
    game_id: int
    thread: int
    turn: int
    fighter: str = ""
    field: str = ""
    action: int = 0
    check: int = 0
    value: int = 0
    reason: int = 0
