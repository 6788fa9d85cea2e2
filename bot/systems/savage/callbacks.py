"""The Savage Worlds buttons' payloads, as typed CallbackData (prefixes unique over the bot:
bot/callbacks.py holds the shared ones)."""

from __future__ import annotations

from aiogram.filters.callback_data import CallbackData


class CombatCallback(CallbackData, prefix="cmb"):
    """A button on the initiative board. ``seq``: the encounter event the board showed
    (a press on an outdated board is refused); ``action``: next, hold, act, interrupt,
    undo, soak, take, unshake."""

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


class RemoveGroupCallback(CallbackData, prefix="rmg"):
    """«🗑 Убрать всех» / «Отмена» under the GM's `/remove` of a whole group of Extras:
    ``confirm`` removes ``combatant`` from the fight as it was at ``seq`` (a press on an
    outdated question is refused), otherwise the question is dropped."""

    game_id: int
    seq: int
    combatant: str
    confirm: bool


class ChaseCallback(CallbackData, prefix="chs"):
    """A button on the chase row: ``action`` undo, bump (``arg`` = "pending,dir,cards")
    or crit (``arg`` = "pending,choice"); the separator is ``render.chase.ARG_SEP``."""

    action: str
    game_id: int
    seq: int
    arg: str = ""


class TurnCallback(CallbackData, prefix="tap"):
    """A button of the acting character's turn menu (on the turn's message, or on the
    board in a quiet game: ``b``). ``r``: the round and ``c``: the character's index in
    `Encounter.characters` — a press after that turn ended is refused; ``k``: the step
    (``m`` menu, ``a``/``aw``/``A`` attack: target, weapon, roll, ``t``/``T`` trait roll,
    ``s``/``sk``/``S`` Support, ``x``/``xk``/``X`` Test, ``d`` Defend, ``h`` Hold,
    ``u`` Unshake, ``n`` end of turn, ``g`` pick a group's member); ``t``: a character
    index, ``w``: an option index (-1: none). Indices keep the data far below 64 bytes."""

    g: int
    r: int
    c: int
    k: str
    t: int = -1
    w: int = -1
    b: bool = False


class DamageCallback(CallbackData, prefix="dmg"):
    """«🛡 Поглотить» / «✔ Принять» under the message of the attack that left damage
    waiting: the answer is added to that message (one message per resolved action).
    ``seq``: the encounter event the message was posted at."""

    g: int
    seq: int
    soak: bool


class BoardDownCallback(CallbackData, prefix="sbd"):
    """«⬇️ Доска вниз» under a turn's message: the live boards posted again at the bottom, as
    /board does (anyone at the table may press it)."""

    g: int
