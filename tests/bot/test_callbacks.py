"""Every inline button's payload fits Telegram's 64 bytes of callback data with the largest
values it can carry: ids of the database (32-bit), step counters up to 10⁹, the longest
combatant id the engine makes (a 24-character slug, «_9999» to tell it from a namesake, and
a group member's «-N»), the longest action word and chase argument."""

from __future__ import annotations

import typing

import pytest
from aiogram.filters.callback_data import CallbackData

import bot.app  # noqa: F401  (every router, hence every CallbackData class, is imported)
from bot.render.limits import CALLBACK_DATA_LIMIT
from bot.systems.duel.callbacks import STAMP_LENGTH, DuelFormCallback, DuelReviewCallback, stamp
from bot.systems.duel.draft import MAX_ACTIONS
from bot.systems.duel.render.review import FIELDS as REVIEW_FIELDS
from bot.systems.savage.callbacks import (
    ChaseCallback,
    CombatCallback,
    DamageCallback,
    TurnCallback,
)
from engine.savage.sheet import MAX_GROUP
from engine.services.library import ID_MAX, slug
from engine.storyteller.options import SEED_AIM_TARGETS

LONGEST_ID = "x" * ID_MAX + "_9999" + f"-{MAX_GROUP}"
WORST: dict[str, object] = {
    "game_id": 2**31 - 1,
    "roll_id": 2**31 - 1,
    "seq": 10**9,
    "step": 10**9,
    "character": LONGEST_ID,
    "combatant": LONGEST_ID,
    "action": "interrupt",  # the longest action word of the boards
    # a bump: «<step>.<event>,<direction>,<cards>»; a critical failure's choice is shorter
    "arg": f"{10**9}.99,-1,2",
}


# Text fields that hold no combatant id, and numbers bounded by play, by class and field:
# the turn menu's step word; a duel form's button op («+» and an action), its fighter («a» or
# «b», engine.duel.new_duel), its draft (at most MAX_ACTIONS actions of five characters) and
# the turn's stamp (four characters whatever the turn: no duel button carries its turn); the
# review's stamp, its field (an index of its FIELDS), action and check indices, its preset
# reason, and the value it sets (any 32-bit number, a d10 face or HP, SP after the turn); the
# Storyteller attack picker's options.
LONGEST_ACTION = "al999"
BY_CLASS: dict[tuple[str, str], object] = {
    ("TurnCallback", "k"): "aw",
    ("DuelFormCallback", "op"): "+" + LONGEST_ACTION,
    ("DuelFormCallback", "fighter"): "b",
    ("DuelFormCallback", "draft"): ".".join([LONGEST_ACTION] * MAX_ACTIONS),
    ("DuelFormCallback", "stamp"): "v" * STAMP_LENGTH,
    ("DuelReviewCallback", "op"): "publish",
    ("DuelReviewCallback", "fighter"): "b",
    ("DuelReviewCallback", "stamp"): "v" * STAMP_LENGTH,
    ("DuelReviewCallback", "field"): len(REVIEW_FIELDS) - 1,
    ("DuelReviewCallback", "value"): -(2**31),
    ("DuelReviewCallback", "action"): MAX_ACTIONS - 1,
    ("DuelReviewCallback", "check"): 9,
    ("DuelReviewCallback", "reason"): 9,  # one of the preset reasons or policies
    # the attack picker's options: three bits, a row of the three-row aim table, a count of
    # actions up to the limit /options and the Mini App allow (5)
    ("AttackCallback", "o"): 7,
    ("AttackCallback", "m"): len(SEED_AIM_TARGETS) - 1,
    ("AttackCallback", "n"): 5,
}


def test_a_duel_button_has_no_turn_and_its_stamp_is_four_characters() -> None:
    for cls in (DuelFormCallback, DuelReviewCallback):
        assert "turn" not in cls.model_fields
    # the same length for the first turn and the billionth, another for every recent turn
    stamps = [stamp("duel:2147483647:99", turn) for turn in (1, 10**9, *range(500, 532))]
    assert {len(s) for s in stamps} == {STAMP_LENGTH}
    assert len(set(stamps[2:])) == 32
    assert stamp("duel:5:1", 3) != stamp("duel:5:2", 3)  # another duel of the topic


def _classes() -> list[type[CallbackData]]:
    found: list[type[CallbackData]] = []
    todo = list(CallbackData.__subclasses__())
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return sorted(found, key=lambda c: c.__name__)


def _worst(cls: type[CallbackData]) -> CallbackData:
    values: dict[str, object] = {}
    for name, field in cls.model_fields.items():
        kind = field.annotation
        if (cls.__name__, name) in BY_CLASS:
            values[name] = BY_CLASS[cls.__name__, name]
        elif name in WORST and isinstance(WORST[name], kind if isinstance(kind, type) else object):
            values[name] = WORST[name]
        elif kind is bool:
            values[name] = True
        elif kind is int:
            values[name] = 2**31 - 1
        else:  # an unknown text field: assume a combatant id
            assert kind is str or str in typing.get_args(kind), (cls, name, kind)
            values[name] = LONGEST_ID
    return cls(**values)


def test_the_bot_has_its_callback_classes() -> None:
    names = {cls.__name__ for cls in _classes()}
    assert {"RerollCallback", "RevealCallback", "CombatCallback", "ChaseCallback"} <= names


def test_every_button_kind_has_a_prefix_of_its_own() -> None:
    """Prefixes are unique over the bot (each system's package chooses its own): a payload
    is parsed by the one class it was packed by."""
    classes = [cls for cls in _classes() if cls.__module__.startswith("bot.")]
    prefixes = [cls.__prefix__ for cls in classes]
    assert len(classes) > 10 and len(set(prefixes)) == len(prefixes), sorted(prefixes)


@pytest.mark.parametrize("cls", _classes(), ids=lambda c: c.__name__)
def test_the_largest_payload_fits_64_bytes(cls: type[CallbackData]) -> None:
    data = _worst(cls)
    packed = data.pack()  # aiogram itself refuses more than 64 bytes
    assert len(packed.encode()) <= CALLBACK_DATA_LIMIT, packed
    assert packed == CallbackData.pack(data)  # a class's own `pack` gives aiogram's string
    assert cls.unpack(packed) == data


def test_the_longest_combatant_id_is_what_the_engine_can_make() -> None:
    # the slug is cut to ID_MAX, so a 255-character name cannot make a longer id
    assert len(slug("Щука" * 64)) <= ID_MAX


def test_a_savage_payload_packs_as_aiogram_does() -> None:
    """`Payload.pack` (bot/systems/savage/callbacks.py) skips pydantic's dump: the same
    string for flags, negative numbers and empty words, and aiogram's refusals for a word
    holding the separator or a payload over 64 bytes."""
    samples: list[CallbackData] = [
        TurnCallback(g=7, r=0, c=2, k="a"),
        TurnCallback(g=-1, r=3, c=0, k="", t=4, w=0, b=True),
        CombatCallback(action="next", game_id=2**31 - 1, seq=-5),
        ChaseCallback(action="bump", game_id=1, seq=2, arg="9.1,-1,2"),
        DamageCallback(g=1, seq=0, soak=False),
    ]
    for data in samples:
        assert data.pack() == CallbackData.pack(data)
        assert type(data).unpack(data.pack()) == data
    with pytest.raises(ValueError, match="Separator"):
        ChaseCallback(action="a:b", game_id=1, seq=2).pack()
    with pytest.raises(ValueError, match="too long"):
        ChaseCallback(action="я" * 30, game_id=1, seq=2).pack()
