"""Keyboards and buttons copied from checked ones are the objects aiogram would have
validated."""

from __future__ import annotations

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callbacks import RerollCallback
from bot.i18n import translator
from bot.render.keyboards import app_url_button, callback_button, keyboard, reroll_keyboard
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


def test_a_keyboard_is_the_validated_one() -> None:
    with translator("ru"):
        link = app_url_button("https://t.me/kosti_bot/app?startapp=g5")
        again = reroll_keyboard(7)
    assert link == InlineKeyboardButton(
        text="📱 Открыть Mini App", url="https://t.me/kosti_bot/app?startapp=g5"
    )
    rows = [[callback_button("a", RerollCallback(roll_id=1)), link]]
    copied, built = keyboard(rows), InlineKeyboardMarkup(inline_keyboard=rows)
    assert copied == built and copied.model_dump() == built.model_dump()
    assert again == InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="🎲 Перебросить", callback_data="rr:7")]]
    )
    assert keyboard([]).inline_keyboard == [] and keyboard(rows) is not keyboard(rows)
