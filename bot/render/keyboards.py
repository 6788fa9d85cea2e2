"""Inline keyboards (their labels are user text, hence here)."""

from __future__ import annotations

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo
from aiogram.utils.i18n import gettext as _

from bot.callbacks import HelpCallback, PickGameCallback, RerollCallback, RevealCallback
from bot.render.games import game_button, open_rolls_button
from engine.services.types import GameInfo

# Checked objects whose copies are the keyboards and buttons below: the same objects as
# validated ones, without pydantic's pass over every field (a fight step builds a dozen
# buttons, 7 µs → 3 µs each; a keyboard 6 µs → 3 µs). What goes in is typed: strings, and
# rows of buttons made here.
_KEYBOARD = InlineKeyboardMarkup(inline_keyboard=[])
_CALLBACK_BUTTON = InlineKeyboardButton(text="", callback_data="")
_URL_BUTTON = InlineKeyboardButton(text="", url="")


def keyboard(rows: list[list[InlineKeyboardButton]]) -> InlineKeyboardMarkup:
    """`InlineKeyboardMarkup(inline_keyboard=rows)`, a copy of a checked one."""
    return _KEYBOARD.model_copy(update={"inline_keyboard": rows})


def callback_button(text: str, data: CallbackData) -> InlineKeyboardButton:
    """`InlineKeyboardButton(text=text, callback_data=data.pack())`, a copy of a checked one."""
    return _CALLBACK_BUTTON.model_copy(update={"text": text, "callback_data": data.pack()})


def reroll_keyboard(roll_id: int) -> InlineKeyboardMarkup:
    return keyboard([[callback_button(_("🎲 Reroll"), RerollCallback(roll_id=roll_id))]])


def reveal_keyboard(roll_id: int) -> InlineKeyboardMarkup:
    return keyboard([[callback_button(_("🔓 Reveal"), RevealCallback(roll_id=roll_id))]])


def board_down_button(data: CallbackData) -> InlineKeyboardButton:
    """Under a turn's message: what /board does (the live board posted again at the bottom,
    bot/board_pin.py), one tap away; `data` is the rule system's own payload for it."""
    return callback_button(_("⬇️ Board down"), data)


def url_keyboard(label: str, url: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text=label, url=url)]])


def help_keyboard(labels: dict[str, str], current: str | None = None) -> InlineKeyboardMarkup:
    """The /help sections, two to a row; the open one is marked."""
    buttons = [
        InlineKeyboardButton(
            text=("· " + label + " ·") if key == current else label,
            callback_data=HelpCallback(section=key).pack(),
        )
        for key, label in labels.items()
    ]
    return InlineKeyboardMarkup(
        inline_keyboard=[buttons[i : i + 2] for i in range(0, len(buttons), 2)]
    )


def start_link_keyboard(url: str) -> InlineKeyboardMarkup:
    button = InlineKeyboardButton(text=_("💬 Open the bot"), url=url)
    return InlineKeyboardMarkup(inline_keyboard=[[button]])


def games_keyboard(games: list[GameInfo], selected_id: int | None) -> InlineKeyboardMarkup:
    rows = [
        [
            InlineKeyboardButton(
                text=game_button(game, game.id == selected_id),
                callback_data=PickGameCallback(game_id=game.id).pack(),
            )
        ]
        for game in games
    ]
    rows.append(
        [
            InlineKeyboardButton(
                text=open_rolls_button(selected_id is None),
                callback_data=PickGameCallback(game_id=0).pack(),
            )
        ]
    )
    return InlineKeyboardMarkup(inline_keyboard=rows)


def app_button_label() -> str:
    return _("📱 Open the Mini App")


def app_url_button(url: str) -> InlineKeyboardButton:
    """The Mini App's direct link (t.me/<bot>/<app>?startapp=…): works in groups. A copy,
    as `callback_button`'s (under every board a step edits)."""
    return _URL_BUTTON.model_copy(update={"text": app_button_label(), "url": url})


def app_web_app_button(url: str) -> InlineKeyboardButton:
    """A ``web_app`` button: Telegram accepts it in private chats only."""
    return InlineKeyboardButton(text=app_button_label(), web_app=WebAppInfo(url=url))


def single_button(button: InlineKeyboardButton) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(inline_keyboard=[[button]])


def with_button_row(
    markup: InlineKeyboardMarkup | None, button: InlineKeyboardButton | None
) -> InlineKeyboardMarkup | None:
    """`markup` with `button` as an extra last row (the existing buttons keep their places)."""
    if button is None:
        return markup
    rows = list(markup.inline_keyboard) if markup is not None else []
    return InlineKeyboardMarkup(inline_keyboard=[*rows, [button]])
