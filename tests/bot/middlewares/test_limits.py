"""Telegram's 4,096 characters: a board of 30 Extras with long names (6,000+ characters)
is shortened at a line break with «…и ещё N строк» instead of refused after the step was
stored; the fake Bot API refuses longer texts as Telegram does."""

from __future__ import annotations

import re
from typing import Any

from aiogram import Dispatcher
from aiogram.types import BufferedInputFile, InlineKeyboardButton, InlineKeyboardMarkup

from bot.render.limits import close_tags, fit, visible_length
from tests.bot.conftest import ALICE, GROUP
from tests.bot.systems.savage.test_combat import Table, set_up_table
from tests.support.telegram import TelegramDriver

LONG = (  # 120 characters
    "Безымянный страж подземного храма северных гор хранитель древних врат "
    "и последний свидетель давно забытой войны кланов"
)


async def test_a_huge_board_is_shortened_not_refused(
    tg: TelegramDriver, dp: Dispatcher, bot: Any
) -> None:
    table = Table(tg)
    await set_up_table(table)
    await table.say(ALICE, "/fight")
    added = await table.say(ALICE, f"/add {LONG} (Статист, ×30) Драка d6; Защита 5, Стойкость 5")
    # (the table's bot is a plain member: Telegram refuses it the board's pin)
    quiet = ("getUpdates", "pinChatMessage")
    refused = [c for c in tg.api.calls if c.result is None and c.method not in quiet]
    assert refused == [], [c.method for c in refused]
    dealt = await table.say(ALICE, "/deal")
    assert [c for c in dealt.calls if c.result is None] == []
    board = table.board()
    assert visible_length(board.text) <= 4096
    assert re.search(r"…и ещё \d+ строк", board.text), board.text[-200:]
    assert added.sent()  # the step was told, not lost


def test_fit_keeps_short_texts_and_cuts_long_ones_at_a_line() -> None:
    assert fit("<b>коротко</b>") == "<b>коротко</b>"
    lines = [f"<b>{i:03}</b> {'я' * 60}" for i in range(200)]
    text = fit("\n".join(lines))
    assert visible_length(text) <= 4096
    kept = text.split("\n")[:-1]
    assert kept == lines[: len(kept)]  # whole lines, in order
    assert text.endswith(f"…и ещё {200 - len(kept)} строк")


def test_a_cut_inside_a_block_closes_its_tags() -> None:
    text = (
        "<blockquote expandable>" + "\n".join("строка " * 20 for _ in range(100)) + "</blockquote>"
    )
    shortened = fit(text, limit=500)
    assert visible_length(shortened) <= 500
    assert shortened.count("<blockquote") == shortened.count("</blockquote>") == 1
    assert close_tags("<b>a<i>b") == "<b>a<i>b</i></b>"


def test_a_caption_and_one_enormous_line() -> None:
    text = fit("я" * 5000)
    assert visible_length(text) <= 4096 and "…" in text
    assert visible_length(fit("<b>" + "ю" * 2000 + "</b>", limit=1024)) <= 1024


async def test_every_send_path_is_kept_within_the_limits(bot: Any, tg: TelegramDriver) -> None:
    """The session middleware: a text, a caption and a button label that are too long."""
    lines = "\n".join(f"<i>строка {i}</i> — " + "ы" * 40 for i in range(300))
    button = InlineKeyboardButton(text="б" * 100, callback_data="x")
    sent = await bot.send_message(
        GROUP.id, lines, reply_markup=InlineKeyboardMarkup(inline_keyboard=[[button]])
    )
    assert sent.text is not None and re.search(r"\n…и ещё 2\d\d строки$", sent.text)
    [call] = tg.api.since(0, "sendMessage")
    assert call.result is not None and visible_length(call.text) <= 4096
    assert len(call.buttons()[0]["text"]) <= 64
    document = BufferedInputFile(b"data", filename="a.txt")
    await bot.send_document(GROUP.id, document, caption="<b>" + "ж" * 3000 + "</b>")
    [doc] = tg.api.since(0, "sendDocument")
    assert doc.result is not None and visible_length(doc.params["caption"]) <= 1024
