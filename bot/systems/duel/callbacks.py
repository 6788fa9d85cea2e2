"""The duel's buttons' payloads, as typed CallbackData (prefixes unique over the bot:
bot/callbacks.py holds the shared ones, each system's package its own; a test checks them).

No button carries its turn (a number without bound would outgrow Telegram's 64 bytes): a
``stamp`` of four characters tells which turn of which duel the button was made for, and a
press whose stamp is not the one the duel would give now is refused (`StaleButton`)."""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterable

from aiogram.filters.callback_data import CallbackData

from engine.duel import DuelState

STAMP_LENGTH = 4
_BASE32 = "0123456789abcdefghijklmnopqrstuv"


class StaleButton(ValueError):
    """A button made for another turn of the duel (or another duel of the topic), or a review
    made before a submission changed. ``review``: a button of the GM's review."""

    def __init__(self, review: bool = False) -> None:
        super().__init__("stale button")
        self.review = review


def stamp(stream: str, turn: int, parts: Iterable[str] = ()) -> str:
    """The turn modulo 32 (so no two turns of the last 32 share a stamp) and three base-32
    characters of a digest of the duel's stream key, the turn and ``parts`` (a review's
    sealed receipts: a review made before a change is stale) — another duel of the topic,
    or a turn 32 or more turns back, matches by chance once in 32,768."""
    text = "|".join((stream, str(turn), *parts))
    digest = base64.b32encode(hashlib.sha256(text.encode("utf-8")).digest()).decode()
    return _BASE32[turn % 32] + digest[: STAMP_LENGTH - 1].lower()


def form_stamp(stream: str, state: DuelState, fighter: str) -> str:
    """The turn's, and how many times the fighter has sealed it: a form that sealed is stale
    (a double tap seals once); the change's form is made with the new count."""
    return stamp(stream, state.turn, (fighter, str(state.seals(fighter))))


def review_stamp(stream: str, state: DuelState) -> str:
    return stamp(stream, state.turn, (s.receipt for s in state.pending))


class DuelFormCallback(CallbackData, prefix="dlf"):
    """A button of a fighter's submission form in the DM. ``stamp``: the turn the form is for
    (`form_stamp`); ``draft``: the actions declared so far (bot/systems/duel/draft.py);
    ``op``: what the button does (``+<action>``, ``next``, ``reset`` while actions are
    added; ``ap+<i>``, ``ap-<i>``, ``dm+<i>``, ``dm-<i>``, ``ez+<i>``, ``ez-<i>``, ``send``
    once the AP are spread)."""

    op: str
    game_id: int
    thread: int
    fighter: str
    stamp: str
    draft: str = ""


class DuelReviewCallback(CallbackData, prefix="dlr"):
    """A button of the GM's review in the DM. ``stamp``: `review_stamp`; ``op``: ``publish``,
    ``undo``, ``remind``, ``roll`` (the d10 faces for ``fighter``'s action ``action``, check
    ``check``), ``fields`` (``fighter``'s values after the turn), ``val`` (the values of field
    ``field``: an index of render/review.py ``FIELDS``), ``pick`` (the reasons for setting
    ``field`` to ``value``), ``why`` (set it, with the preset reason ``reason``), ``back``;
    the deadline's: ``dlpick``, ``dl`` (``value`` hours, ``reason`` the policy's index),
    ``default`` (``fighter``'s default defensive turn)."""

    op: str
    game_id: int
    thread: int
    stamp: str
    fighter: str = ""
    field: int = 0
    action: int = 0
    check: int = 0
    value: int = 0
    reason: int = 0


class DuelRuleCallback(CallbackData, prefix="dlo"):
    """A button of the game's duel readings (`/duel правила`): the next value of option
    ``rule`` (an index of `DuelOptions`' fields) for the game's next duels."""

    game_id: int
    rule: int
