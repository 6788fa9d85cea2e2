"""The in-memory Bot API through the real aiogram Bot: answers of the methods'
`__returning__` types, and Telegram's refusals as the same exceptions a real answer raises."""

from __future__ import annotations

import logging

import pytest
from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError, TelegramNotFound
from aiogram.methods import TelegramMethod
from aiogram.types import (
    BufferedInputFile,
    ChatMemberAdministrator,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    WebAppInfo,
)

from bot.playground.markup import parse_html
from bot.playground.play import Playground
from bot.playground.world import FORUM_ID, GROUP_ID, PlayMessage
from tests.bot.playground.conftest import ANYA, GM


@pytest.fixture
def play() -> Playground:
    return Playground()


@pytest.fixture
def bot(play: Playground) -> Bot:
    return Bot(play.token, session=play.session, default=DefaultBotProperties(parse_mode="HTML"))


def web_app_keyboard() -> InlineKeyboardMarkup:
    button = InlineKeyboardButton(text="App", web_app=WebAppInfo(url="https://x.invalid/app/"))
    return InlineKeyboardMarkup(inline_keyboard=[[button]])


async def test_get_me_and_a_message_are_aiogram_objects(bot: Bot, play: Playground):
    me = await bot.get_me()
    assert me.id == bot.id and me.username == "kosti_playground_bot"
    sent = await bot.send_message(GROUP_ID, "<b>жирный</b> и <i>курсив</i> &lt;3")
    assert isinstance(sent, Message) and sent.message_id == 1
    assert sent.text == "жирный и курсив <3"
    assert sent.html_text == "<b>жирный</b> и <i>курсив</i> &lt;3"


async def test_the_bot_cannot_write_first_to_a_user(bot: Bot, play: Playground):
    with pytest.raises(TelegramForbiddenError, match="bot can't initiate conversation"):
        await bot.send_message(ANYA, "привет")
    play.world.chats[ANYA].started = True
    assert (await bot.send_message(ANYA, "привет")).chat.type == "private"


async def test_web_app_buttons_only_in_private_chats(bot: Bot, play: Playground):
    with pytest.raises(TelegramBadRequest, match="BUTTON_TYPE_INVALID"):
        await bot.send_message(GROUP_ID, "app", reply_markup=web_app_keyboard())
    play.world.chats[GM].started = True
    await bot.send_message(GM, "app", reply_markup=web_app_keyboard())


async def test_edits_deletes_and_their_refusals(bot: Bot, play: Playground):
    sent = await bot.send_message(FORUM_ID, "раз", message_thread_id=1)
    assert sent.message_thread_id == 1 and sent.is_topic_message
    edited = await bot.edit_message_text("два", chat_id=FORUM_ID, message_id=sent.message_id)
    assert isinstance(edited, Message) and edited.text == "два" and edited.edit_date
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_message_text("два", chat_id=FORUM_ID, message_id=sent.message_id)
    forum = play.world.chats[FORUM_ID]
    anya = play.world.users[ANYA].as_dict()
    user_message = play.world.add_message(PlayMessage(forum.next_id(), FORUM_ID, anya, "ой", []))
    member = await bot.get_chat_member(FORUM_ID, bot.id)
    assert member.status == "member"  # no admin in the forum: may not delete others' messages
    with pytest.raises(TelegramBadRequest, match="message can't be deleted"):
        await bot.delete_message(FORUM_ID, user_message.id)
    assert await bot.delete_message(FORUM_ID, sent.message_id)  # its own: always
    assert sent.message_id not in play.world.chats[FORUM_ID].messages
    admin = await bot.get_chat_member(GROUP_ID, bot.id)
    assert isinstance(admin, ChatMemberAdministrator) and admin.can_delete_messages


async def test_telegram_refuses_bad_html_and_long_texts(bot: Bot):
    with pytest.raises(TelegramBadRequest, match="Unsupported start tag"):
        await bot.send_message(GROUP_ID, "a<br>b")
    with pytest.raises(TelegramBadRequest, match="Can't find end tag"):
        await bot.send_message(GROUP_ID, "<b>a")
    with pytest.raises(TelegramBadRequest, match="message is too long"):
        await bot.send_message(GROUP_ID, "x" * 4097)
    text, entities = parse_html('<pre><code class="language-json">{}</code></pre>')
    assert text == "{}" and entities[0] == {
        "type": "pre",
        "language": "json",
        "offset": 0,
        "length": 2,
    }


async def test_a_document_keeps_its_bytes_for_the_page(bot: Bot, play: Playground):
    sent = await bot.send_document(GROUP_ID, BufferedInputFile(b'{"a": 1}', "fight.json"))
    assert sent.document is not None and sent.document.file_name == "fight.json"
    assert play.world.files[sent.document.file_id] == ("fight.json", b'{"a": 1}')


class Unknown(TelegramMethod[bool]):
    __returning__ = bool
    __api_method__ = "sendDice"


async def test_an_unknown_method_is_an_error_the_bot_survives_logged_once(
    bot: Bot, caplog: pytest.LogCaptureFixture
):
    with caplog.at_level(logging.WARNING, logger="bot.playground.botapi"):
        for _ in range(2):
            with pytest.raises(TelegramNotFound):
                await bot(Unknown())
    assert [r.getMessage() for r in caplog.records].count(
        "the playground does not know the Bot API method sendDice"
    ) == 1


async def test_the_administrators_of_a_group_are_its_creator_and_the_bot_when_it_may_delete(
    bot: Bot,
):
    group = await bot.get_chat_administrators(GROUP_ID)
    assert [m.status for m in group] == ["creator", "administrator"]
    assert group[1].user.id == bot.id
    forum = await bot.get_chat_administrators(FORUM_ID)
    assert [m.status for m in forum] == ["creator"]
    chat = await bot.get_chat(FORUM_ID)
    assert chat.is_forum and chat.title == "Клуб «Дикий край»"


async def test_a_bot_pins_in_a_group_only_as_an_admin(bot: Bot, play: Playground):
    """As Telegram: the forum's bot is a plain member and may not pin; the group's is an
    admin: the pinned message is the chat's (the page draws its bar), unpinned by id."""
    refused = await bot.send_message(FORUM_ID, "доска", message_thread_id=1)
    with pytest.raises(TelegramBadRequest, match="not enough rights to manage pinned"):
        await bot.pin_chat_message(FORUM_ID, refused.message_id)
    board = await bot.send_message(GROUP_ID, "доска")
    assert await bot.pin_chat_message(GROUP_ID, board.message_id, disable_notification=True)
    assert play.world.chat_view(play.world.chats[GROUP_ID])["pinned"] == board.message_id
    with pytest.raises(TelegramBadRequest, match="message to unpin not found"):
        await bot.unpin_chat_message(GROUP_ID, message_id=board.message_id + 1)
    assert await bot.unpin_chat_message(GROUP_ID, message_id=board.message_id)
    assert play.world.chats[GROUP_ID].pinned is None
