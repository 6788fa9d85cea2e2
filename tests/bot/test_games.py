"""Games and roles end to end: /newgame, /join, /gm, /game, /endgame, forum topics,
/games in the private chat."""

from __future__ import annotations

from typing import Any

import pytest
from aiogram.types import Message

from engine.store.models import Game, OutgoingCall
from tests.bot.conftest import ALICE, BORIS, GROUP, VERA, Journaled
from tests.support.telegram import TelegramDriver, group, message_of, private


async def test_newgame_needs_a_system_and_a_name(tg: TelegramDriver) -> None:
    for text in ("/newgame", "/newgame дикий", "/newgame шахматы Партия"):
        reply = (await tg.send(ALICE, GROUP, text)).only_text()
        assert reply.startswith("Как создать игру: <code>/newgame &lt;система&gt;")


async def test_game_lifecycle_create_join_show_transfer(tg: TelegramDriver) -> None:
    created = (await tg.send(ALICE, GROUP, "/newgame дикий Пустые <земли>")).only_text()
    assert "Новая игра <b>Пустые &lt;земли&gt;</b> — Savage Worlds (SWADE, Дикий мир)" in created
    assert "Ведущий: <b>Алиса</b>" in created

    again = (await tg.send(VERA, GROUP, "/newgame wod Другая")).only_text()
    assert again.startswith("В этом чате уже идёт игра: <b>Пустые &lt;земли&gt;</b>")

    joined = (await tg.send(BORIS, GROUP, "/join")).only_text()
    assert joined == "<b>Борис &lt;b&gt;</b> вступает в игру <b>Пустые &lt;земли&gt;</b> как игрок."
    assert "уже в игре" in (await tg.send(BORIS, GROUP, "/join")).only_text()
    assert "уже в игре" in (await tg.send(ALICE, GROUP, "/join")).only_text()

    card = (await tg.send(VERA, GROUP, "/game")).only_text()
    assert "Ведущий: <b>Алиса</b>" in card
    assert "1 игрок: <b>Борис &lt;b&gt;</b>" in card

    # /gm must answer a message; only the GM may hand the game over.
    assert "Ответьте командой /gm" in (await tg.send(ALICE, GROUP, "/gm")).only_text()
    refused = await tg.send(BORIS, GROUP, "/gm", reply_to=message_of(VERA, GROUP))
    assert refused.only_text() == "Это может только ведущий игры."

    handed = await tg.send(ALICE, GROUP, "/gm", reply_to=message_of(VERA, GROUP))
    assert handed.only_text() == "<b>Вера</b> теперь ведущий игры <b>Пустые &lt;земли&gt;</b>."
    card = (await tg.send(VERA, GROUP, "/game")).only_text()
    assert "Ведущий: <b>Вера</b>" in card
    assert "2 игрока: <b>Борис &lt;b&gt;</b>, <b>Алиса</b>" in card or (
        "2 игрока: <b>Алиса</b>, <b>Борис &lt;b&gt;</b>" in card
    )

    assert (await tg.send(ALICE, GROUP, "/endgame")).only_text() == "Это может только ведущий игры."
    ended = (await tg.send(VERA, GROUP, "/endgame")).only_text()
    assert ended.startswith("Игра <b>Пустые &lt;земли&gt;</b> завершена.")
    assert "нет игры" in (await tg.send(VERA, GROUP, "/game")).only_text()


async def test_game_commands_outside_a_group(tg: TelegramDriver) -> None:
    assert (
        "в групповом чате" in (await tg.send(ALICE, private(ALICE), "/newgame дикий X")).only_text()
    )
    assert "в личном чате" in (await tg.send(ALICE, GROUP, "/games")).only_text()
    assert "нет игры" in (await tg.send(ALICE, GROUP, "/join")).only_text()


async def test_forum_topics_have_separate_games(tg: TelegramDriver) -> None:
    forum = group(-1002000000002, "Форум", forum=True)
    first = await tg.send(ALICE, forum, "/newgame дикий Пустоши", thread_id=10)
    second = await tg.send(BORIS, forum, "/newgame сказитель Город", thread_id=20)
    assert first.sent()[0].params["message_thread_id"] == 10
    assert second.sent()[0].params["message_thread_id"] == 20

    card10 = (await tg.send(VERA, forum, "/game", thread_id=10)).only_text()
    card20 = (await tg.send(VERA, forum, "/game", thread_id=20)).only_text()
    assert "<b>Пустоши</b>" in card10 and "Ведущий: <b>Алиса</b>" in card10
    assert "<b>Город</b>" in card20 and "Сказитель" in card20 and "Ведущий: <b>Борис" in card20
    assert "нет игры" in (await tg.send(VERA, forum, "/game")).only_text()  # General topic


async def test_private_games_menu_selects_where_rolls_go(tg: TelegramDriver) -> None:
    await tg.send(ALICE, GROUP, "/newgame дуэль Поединок")
    await tg.send(BORIS, GROUP, "/join")
    assert "не участвуете" in (await tg.send(VERA, private(VERA), "/games")).only_text()

    [menu] = (await tg.send(BORIS, private(BORIS), "/play")).sent()
    assert "<b>Поединок</b> — Игровой стол (Форумная дуэль)" in menu.text
    button, open_rolls = menu.buttons()
    assert button["text"] == "Поединок — Игровой стол"
    assert open_rolls["text"] == "✅ Без игры: мои броски здесь открытые"

    picked = await tg.press(BORIS, menu)
    [edit] = [c for c in picked.calls if c.method == "editMessageText"]
    assert "✅ <b>Поединок</b>" in edit.text
    assert "Броски здесь теперь идут в игру <b>Поединок</b>" in edit.text
    [toast] = [c for c in picked.calls if c.method == "answerCallbackQuery"]
    assert toast.params["text"] == "Личные броски идут в «Поединок»"

    [menu] = (await tg.send(BORIS, private(BORIS), "/games")).sent()
    assert menu.buttons()[0]["text"].startswith("✅ ")

    # Back to open rolls: a private roll is answered in place, nothing reaches the group.
    cleared = await tg.press(BORIS, menu, button=1)
    [toast] = [c for c in cleared.calls if c.method == "answerCallbackQuery"]
    assert toast.params["text"] == "Броски здесь снова обычные, открытые."
    rolled = await tg.send(BORIS, private(BORIS), "/r 2d6")
    assert [c.chat_id for c in rolled.sent()] == [BORIS.id]
    assert "квитанц" not in rolled.only_text().lower()


async def test_gm_in_a_forum_topic_without_a_reply_hands_the_game_to_nobody(
    tg: TelegramDriver,
) -> None:
    """In a topic Telegram sets `reply_to_message` to the topic's first message (whoever
    created the topic) even when nothing was replied to: a bare /gm there is no reply."""
    forum = group(-1002000000003, "Форум", forum=True)
    await tg.send(ALICE, forum, "/newgame дикий Пустоши", thread_id=10)
    topic_start = message_of(VERA, forum, "", message_id=10) | {
        "forum_topic_created": {"name": "Бой", "icon_color": 7322096},
        "message_thread_id": 10,
        "is_topic_message": True,
    }
    bare = await tg.send(ALICE, forum, "/gm", thread_id=10, reply_to=topic_start)
    assert "Ответьте командой /gm" in bare.only_text()
    card = (await tg.send(ALICE, forum, "/game", thread_id=10)).only_text()
    assert "Вера" not in card


async def test_a_new_game_and_its_announcement_commit_together(
    journaled: Journaled, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 24, item 1, for a set-up command: /newgame's game and the journal row of its
    announcement are one transaction, the announcement queued only after it; a failure after
    the reply leaves no game, no row and no message but the error's own answer."""
    api, real_reply = journaled.api, Message.reply
    seen: list[tuple[int, bool]] = []  # after the announcement: messages sent, any queued
    broken = [True]

    async def reply_then_look(self: Message, *args: Any, **kwargs: Any) -> Any:
        answer = await real_reply(self, *args, **kwargs)
        if not seen:
            seen.append((len(api.since(mark, "sendMessage")), bool(journaled.flood.chats)))
        if broken.pop() if broken else False:
            raise RuntimeError("the handler broke after its reply")
        return answer

    monkeypatch.setattr(Message, "reply", reply_then_look)
    mark = api.mark()
    await journaled.tg.send(ALICE, GROUP, "/newgame дикий Пустые земли")
    await journaled.settled()
    assert await Game.all().count() == 0
    [error] = api.since(mark)
    assert error.text.startswith("Что-то пошло не так.")
    assert await OutgoingCall.all().count() == 0

    seen.clear()
    mark = api.mark()
    await journaled.tg.send(ALICE, GROUP, "/newgame дикий Пустые земли")
    assert seen == [(0, False)]  # replied inside the step: nothing queued, nothing sent
    await journaled.settled()
    [created] = api.sent(mark)
    assert "Новая игра <b>Пустые земли</b>" in created.text
    assert await Game.all().count() == 1
    assert await OutgoingCall.all().count() == 0
