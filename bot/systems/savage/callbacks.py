"""The Savage Worlds buttons' payloads, as typed CallbackData (prefixes unique over the bot:
bot/callbacks.py holds the shared ones)."""

from __future__ import annotations

from typing import ClassVar

from aiogram.filters.callback_data import MAX_CALLBACK_LENGTH, CallbackData


class Payload(CallbackData, prefix="sw"):
    """The base of these payloads: `pack` gives aiogram's string without pydantic's dump of
    the payload (a fight step packs a dozen: 6.5 µs → 1.7 µs each). Its fields are numbers,
    words and flags, encoded as aiogram does (a flag as 1 or 0); any other value, a word
    holding the separator or a string over 64 bytes goes aiogram's way (which refuses the
    last two)."""

    _names: ClassVar[dict[type[CallbackData], tuple[str, ...]]] = {}

    def pack(self) -> str:
        cls = type(self)
        names = Payload._names.get(cls) or Payload._names.setdefault(cls, tuple(cls.model_fields))
        values, parts = self.__dict__, [self.__prefix__]
        for name in names:
            value = values[name]
            kind = type(value)
            if kind is bool:
                parts.append("1" if value else "0")
            elif kind is int:
                parts.append(str(value))
            elif kind is str and self.__separator__ not in value:
                parts.append(value)
            else:
                return super().pack()
        packed = self.__separator__.join(parts)
        if len(packed) * 4 > MAX_CALLBACK_LENGTH and len(packed.encode()) > MAX_CALLBACK_LENGTH:
            return super().pack()
        return packed


class CombatCallback(Payload, prefix="cmb"):
    """A button on the initiative board. ``seq``: the encounter event the board showed
    (a press on an outdated board is refused); ``action``: next, hold, act, interrupt,
    undo, soak, take, unshake."""

    action: str
    game_id: int
    seq: int


class BennyRerollCallback(Payload, prefix="brr"):
    """«🎲 Бенни: перебросить» under a combat roll: a benny re-rolls ``character``'s last
    trait roll. ``step``: the encounter step that made (or last re-rolled) it — a press
    after that roll was replaced or closed is refused. The engine checks who may press
    (the owner; the GM for NPCs)."""

    game_id: int
    step: int
    character: str


class RemoveGroupCallback(Payload, prefix="rmg"):
    """«🗑 Убрать всех» / «Отмена» under the GM's `/remove` of a whole group of Extras:
    ``confirm`` removes ``combatant`` from the fight as it was at ``seq`` (a press on an
    outdated question is refused), otherwise the question is dropped."""

    game_id: int
    seq: int
    combatant: str
    confirm: bool


class ChaseCallback(Payload, prefix="chs"):
    """A button on the chase row: ``action`` undo, bump (``arg`` = "pending,dir,cards")
    or crit (``arg`` = "pending,choice"); the separator is ``render.chase.ARG_SEP``."""

    action: str
    game_id: int
    seq: int
    arg: str = ""


class TurnCallback(Payload, prefix="tap"):
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


class DamageCallback(Payload, prefix="dmg"):
    """«🛡 Поглотить» / «✔ Принять» under the message of the attack that left damage
    waiting: the answer is added to that message (one message per resolved action).
    ``seq``: the encounter event the message was posted at."""

    g: int
    seq: int
    soak: bool


class BoardDownCallback(Payload, prefix="sbd"):
    """«⬇️ Доска вниз» under a turn's message: the live boards posted again at the bottom, as
    /board does (anyone at the table may press it)."""

    g: int
