"""A callback button copied from a checked one is the button aiogram would have validated."""

from __future__ import annotations

from aiogram.types import InlineKeyboardButton

from bot.render.keyboards import callback_button
from bot.systems.savage.callbacks import TurnCallback


def test_a_callback_button_is_the_validated_one() -> None:
    data = TurnCallback(g=3, r=2, c=1, k="a", b=True)
    copied = callback_button("⚔️ Атака", data)
    built = InlineKeyboardButton(text="⚔️ Атака", callback_data=data.pack())
    assert copied == built
    assert copied.model_dump(exclude_none=True) == {
        "text": "⚔️ Атака",
        "callback_data": "tap:3:2:1:a:-1:-1:1",
    }
    assert copied.model_fields_set == built.model_fields_set
    copied.text = "✂"  # a label cut to fit (bot/middlewares/limits.py) changes that copy only
    assert callback_button("⚔️ Атака", data).text == "⚔️ Атака"
