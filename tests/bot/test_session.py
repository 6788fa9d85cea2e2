"""The Bot API session (bot/session.py) against the fake Bot API over real HTTP: calls go as
JSON (a file still as a form), an answer's echoed keyboard is the one sent, and failures are
aiogram's as before."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest
from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError
from aiogram.methods import (
    AnswerCallbackQuery,
    BanChatMember,
    EditMessageText,
    RestrictChatMember,
    SendMessage,
    SetMyCommands,
    TelegramMethod,
)
from aiogram.types import (
    BotCommand,
    BufferedInputFile,
    ChatPermissions,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    KeyboardButton,
    MessageEntity,
    ReplyKeyboardMarkup,
    ReplyParameters,
)

from bot.app import create_bot
from bot.session import BotSession
from bot.settings import Settings
from tests.support.fake_botapi import BOT_TOKEN, FakeBotAPI

CHAT = -1001000000001
BOARD = InlineKeyboardMarkup(
    inline_keyboard=[
        [InlineKeyboardButton(text="▶️ Дальше", callback_data="cmb:next:7:12")],
        [
            InlineKeyboardButton(text="Атака — Ичиго", callback_data="cmb:atk:ichigo:12"),
            InlineKeyboardButton(text="📱 Доска", url="https://t.me/kosti_bot/app?startapp=g1"),
        ],
    ]
)
BOARD_JSON = {
    "inline_keyboard": [
        [{"text": "▶️ Дальше", "callback_data": "cmb:next:7:12"}],
        [
            {"text": "Атака — Ичиго", "callback_data": "cmb:atk:ichigo:12"},
            {"text": "📱 Доска", "url": "https://t.me/kosti_bot/app?startapp=g1"},
        ],
    ]
}


@pytest.fixture
async def raw_bot(api: FakeBotAPI) -> AsyncIterator[Bot]:
    """The session alone, without the flood queue and the other middlewares."""
    bot = Bot(BOT_TOKEN, session=BotSession(api=TelegramAPIServer.from_base(api.base_url)))
    try:
        yield bot
    finally:
        await bot.session.close()


def test_the_bot_talks_through_it(settings: Settings) -> None:
    assert isinstance(create_bot(settings).session, BotSession)


async def test_a_message_goes_as_json_with_its_values_typed(api: FakeBotAPI, bot: Bot) -> None:
    mark = api.mark()
    sent = await bot.send_message(CHAT, "<b>Раунд 1</b>: ёжик «Ё»", reply_markup=BOARD)
    [call] = api.since(mark, "sendMessage")
    assert call.body == "json"
    assert call.params["chat_id"] == CHAT
    assert call.params["text"] == "<b>Раунд 1</b>: ёжик «Ё»"
    assert call.params["parse_mode"] == "HTML"  # the bot's default, resolved
    assert call.params["reply_markup"] == BOARD_JSON
    assert sent.html_text == "<b>Раунд 1</b>: ёжик «Ё»"
    assert sent.reply_markup is BOARD  # the echoed keyboard: the object sent


async def test_false_and_empty_values_are_left_out_as_in_a_form(
    api: FakeBotAPI, raw_bot: Bot
) -> None:
    mark = api.mark()
    await raw_bot.send_message(CHAT, "тихо", disable_notification=False, protect_content=True)
    [call] = api.since(mark, "sendMessage")
    assert "disable_notification" not in call.params
    assert call.params["protect_content"] is True
    assert "parse_mode" not in call.params  # no default set on this bot


async def test_an_edit_reads_its_answer(api: FakeBotAPI, bot: Bot) -> None:
    posted = await bot.send_message(CHAT, "доска")
    edited = await bot.edit_message_text(
        "доска 2", chat_id=CHAT, message_id=posted.message_id, reply_markup=BOARD
    )
    assert not isinstance(edited, bool)
    assert (edited.message_id, edited.text, edited.reply_markup) == (
        posted.message_id,
        "доска 2",
        BOARD,
    )
    plain = await bot.edit_message_text("доска 3", chat_id=CHAT, message_id=posted.message_id)
    assert not isinstance(plain, bool) and plain.reply_markup is None


async def test_a_file_still_goes_as_a_form(api: FakeBotAPI, bot: Bot) -> None:
    mark = api.mark()
    document = BufferedInputFile("бой: раунд 1\n".encode(), filename="бой.txt")
    sent = await bot.send_document(CHAT, document, caption="Журнал")
    [call] = api.since(mark, "sendDocument")
    assert call.body == "form"
    assert call.params["document"]["content"] == "бой: раунд 1\n".encode()
    assert call.params["caption"] == "Журнал"
    assert sent.document is not None and sent.document.file_name == "бой.txt"


async def test_failures_are_aiogram_s_own(api: FakeBotAPI, raw_bot: Bot) -> None:
    api.forbid(CHAT)
    with pytest.raises(TelegramForbiddenError):
        await raw_bot.send_message(CHAT, "доска", reply_markup=BOARD)
    api.allow(CHAT)
    with pytest.raises(TelegramBadRequest, match="message can't be deleted"):
        await raw_bot.delete_message(CHAT, 5)


def _dumped(bot: Bot, method: TelegramMethod[Any]) -> dict[str, Any]:
    """aiogram's own reading of a call's fields: pydantic's dump, each value prepared."""
    session = AiohttpSession()
    files: dict[str, Any] = {}
    params = {}
    for key, value in method.model_dump(warnings=False).items():
        prepared = session.prepare_value(value, bot=bot, files=files, _dumps_json=False)
        if prepared:
            params[key] = prepared
    return params


@pytest.mark.parametrize(
    "method",
    [
        SendMessage(
            chat_id=CHAT,
            text="<b>Раунд 1</b>",
            reply_parameters=ReplyParameters(message_id=5),
            reply_markup=BOARD,
            message_thread_id=7,
        ),
        EditMessageText(chat_id=CHAT, message_id=3, text="доска", reply_markup=BOARD),
        AnswerCallbackQuery(callback_query_id="q1", text="Не ваш бросок", show_alert=True),
        BanChatMember(chat_id=CHAT, user_id=1, until_date=datetime(2030, 1, 2, tzinfo=UTC)),
        RestrictChatMember(
            chat_id=CHAT,
            user_id=1,
            permissions=ChatPermissions(can_send_messages=False),
            until_date=datetime(2030, 1, 2, 3, 4, tzinfo=UTC),
        ),
        SetMyCommands(commands=[BotCommand(command="r", description="Бросок")]),
        SendMessage(
            chat_id=CHAT,
            text="ok",
            entities=[MessageEntity(type="bold", offset=0, length=2)],
            reply_markup=ReplyKeyboardMarkup(keyboard=[[KeyboardButton(text="Да")]]),
        ),
        SendMessage(chat_id=CHAT, text="ещё", extra_field="сверх"),
    ],
    ids=type,
)
def test_the_fields_read_as_they_are_make_the_dumped_body(method: TelegramMethod[Any]) -> None:
    session = BotSession()
    default = DefaultBotProperties(parse_mode="HTML", link_preview_is_disabled=True)
    bot = Bot(BOT_TOKEN, session=session, default=default)
    params = session.json_params(bot, method)
    assert params == _dumped(bot, method)
