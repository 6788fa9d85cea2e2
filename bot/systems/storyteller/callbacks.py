"""The Storyteller buttons' payloads, as typed CallbackData (prefixes unique over the bot)."""

from __future__ import annotations

from aiogram.filters.callback_data import CallbackData


class FightCallback(CallbackData, prefix="stf"):
    """A button on the initiative board: ``action`` attack, init, delay, yield, done,
    fulldef, undo; ``seq`` the fight event the board showed (a press on an outdated board is
    refused). ``board``: «⬇️ Доска вниз» under a new turn's message (/board; any ``seq``)."""

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


class AttackCallback(CallbackData, prefix="sta"):
    """A button of the attack picker: ``a`` the attacker's place among the fight's fighters,
    ``t`` the target's and ``w`` the weapon's (-1: not chosen yet), ``o`` the options' bits
    (picker.FLANK_BIT …), ``m`` the aimed target's place in the game's aim table (-1: none),
    ``n`` the actions declared with the attack (0: as declared); ``go`` attack now, ``stop``
    put the picker away."""

    game_id: int
    a: int
    t: int = -1
    w: int = -1
    o: int = 0
    m: int = -1
    n: int = 0
    go: bool = False
    stop: bool = False


class DefendCallback(CallbackData, prefix="std"):
    """A defense the attacked player taps: ``i`` its place among decide.defense_choices at
    fight event ``seq`` (a press on an outdated list is refused)."""

    game_id: int
    seq: int
    i: int


class AddNamedCallback(CallbackData, prefix="stn"):
    """A name /add may have meant (a button under its refusal): ``name`` the saved
    character's or template's, ``count`` the copies asked for."""

    game_id: int
    name: str
    count: int = 1
