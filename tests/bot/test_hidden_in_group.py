"""A typed /hr in the group: deleted when the bot may delete messages (the receipt then
quotes nothing), else answered as before with a hint given once per chat; a non-member's
/hr is refused."""

from __future__ import annotations

from aiogram import Bot

from bot.chat_rights import ChatRights
from engine.services.after_commit import collecting
from engine.store.models import RollLog
from tests.bot.conftest import ALICE, BORIS, GROUP, VERA
from tests.support.fake_botapi import FakeBotAPI
from tests.support.telegram import TelegramDriver, TgChat, group, private

HINT = "Всё, что написано после /hr, видят все в этом чате."


async def _game_with_player(
    tg: TelegramDriver, chat: TgChat = GROUP, thread_id: int | None = None
) -> None:
    await tg.send(ALICE, chat, "/newgame дикий Тени", thread_id=thread_id)
    await tg.send(BORIS, chat, "/join", thread_id=thread_id)
    await tg.send(ALICE, private(ALICE), "/start")
    await tg.send(BORIS, private(BORIS), "/start")


async def test_with_delete_rights_the_command_goes_and_the_receipt_quotes_nothing(
    tg: TelegramDriver, api: FakeBotAPI
) -> None:
    await _game_with_player(tg)
    api.grant_delete(GROUP.id)

    feed = await tg.send(BORIS, GROUP, "/hr 7d10>=6 засада")
    [deleted] = [c for c in feed.calls if c.method == "deleteMessage"]
    assert deleted.chat_id == GROUP.id
    assert deleted.params["message_id"] == feed.message["message_id"]
    [receipt] = feed.sent(GROUP.id)
    assert "reply_parameters" not in receipt.params
    assert "засада" not in receipt.text and "7d10" not in receipt.text
    assert "Скрытый бросок №" in receipt.text and HINT not in receipt.text
    assert "засада" in feed.sent(ALICE.id)[0].text  # the GM still reads the comment

    again = await tg.send(BORIS, GROUP, "/hr d6")
    assert "deleteMessage" in again.methods()
    assert "getChatMember" not in again.methods()  # the answer is cached for the chat
    assert len(api.since(0, "getChatMember")) == 1


async def test_in_a_forum_topic_the_receipt_stays_in_the_topic(
    tg: TelegramDriver, api: FakeBotAPI
) -> None:
    forum = group(-1003000000004, "Форум", forum=True)
    await _game_with_player(tg, forum, thread_id=77)
    api.grant_delete(forum.id)
    feed = await tg.send(BORIS, forum, "/hr 2d6 засада", thread_id=77)
    assert "deleteMessage" in feed.methods()
    [receipt] = feed.sent(forum.id)
    assert receipt.params["message_thread_id"] == 77
    assert "reply_parameters" not in receipt.params


async def test_without_delete_rights_the_hint_comes_once_per_chat(
    tg: TelegramDriver, api: FakeBotAPI
) -> None:
    await _game_with_player(tg)
    first = await tg.send(BORIS, GROUP, "/hr 7d10>=6 засада")
    assert "deleteMessage" not in first.methods()  # the bot knows it may not
    [receipt] = first.sent(GROUP.id)
    assert receipt.params["reply_parameters"]["message_id"] == first.message["message_id"]
    assert HINT in receipt.text and "/games" in receipt.text and "удалять сообщения" in receipt.text
    # still stored and delivered as a hidden roll
    assert "засада" in first.sent(ALICE.id)[0].text and first.sent(BORIS.id)

    second = await tg.send(ALICE, GROUP, "/hr d20")
    [receipt] = second.sent(GROUP.id)
    assert HINT not in receipt.text and "Скрытый бросок №" in receipt.text

    other = group(-1001000000002, "Другой стол")
    await _game_with_player(tg, other)
    assert HINT in (await tg.send(BORIS, other, "/hr d6")).only_text(other.id)


async def test_a_refused_delete_counts_as_no_right(tg: TelegramDriver, api: FakeBotAPI) -> None:
    await _game_with_player(tg)
    api.stale_rights.add(GROUP.id)  # says administrator, but the delete is refused

    first = await tg.send(BORIS, GROUP, "/hr d8 засада")
    [refused] = [c for c in first.calls if c.method == "deleteMessage"]
    assert refused.result is None
    [receipt] = first.sent(GROUP.id)
    assert receipt.params["reply_parameters"]["message_id"] == first.message["message_id"]
    assert HINT in receipt.text

    second = await tg.send(BORIS, GROUP, "/hr d8")
    assert "deleteMessage" not in second.methods() and "getChatMember" not in second.methods()
    assert HINT not in second.only_text(GROUP.id)


async def test_a_non_members_hidden_roll_is_refused(tg: TelegramDriver, api: FakeBotAPI) -> None:
    await _game_with_player(tg)
    await tg.send(VERA, private(VERA), "/start")
    api.grant_delete(GROUP.id)

    feed = await tg.send(VERA, GROUP, "/hr 2d6 подглядываю")
    text = feed.only_text(GROUP.id)
    assert text.startswith("Скрытые броски игры <b>Тени</b> — для её ведущего и игроков")
    assert "/join" in text
    assert feed.sent(ALICE.id) == [] and feed.sent(VERA.id) == []
    assert "deleteMessage" not in feed.methods()
    assert await RollLog.filter(user_id=VERA.id).count() == 0

    await tg.send(VERA, GROUP, "/join")  # once she plays, it is a hidden roll like any other
    joined = await tg.send(VERA, GROUP, "/hr 2d6")
    assert "подглядываю" not in joined.sent(GROUP.id)[0].text
    assert len(joined.sent(ALICE.id)) == 1 and len(joined.sent(VERA.id)) == 1


async def test_rights_are_asked_again_after_the_cache_expires(bot: Bot, api: FakeBotAPI) -> None:
    now = [0.0]
    rights = ChatRights(ttl=60, clock=lambda: now[0])
    assert not await rights.may_delete(bot, GROUP.id)
    api.grant_delete(GROUP.id)
    now[0] = 59
    assert not await rights.may_delete(bot, GROUP.id)  # still the cached answer
    now[0] = 61
    assert await rights.may_delete(bot, GROUP.id)
    assert len(api.since(0, "getChatMember")) == 2
    assert rights.first_hint(GROUP.id) and not rights.first_hint(GROUP.id)


async def test_a_hint_given_in_a_step_that_rolled_back_is_given_again() -> None:
    rights = ChatRights()
    with collecting():  # a step whose transaction rolled back: its callbacks never run
        assert rights.first_hint(GROUP.id)
    with collecting() as later:  # the next step commits
        assert rights.first_hint(GROUP.id)
    for then in later:
        await then()
    assert not rights.first_hint(GROUP.id)
