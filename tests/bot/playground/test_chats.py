"""The real dispatcher behind the playground's chats: what users type becomes updates, what
the bot sends arrives through the in-memory Bot API with Telegram's rules kept."""

from __future__ import annotations

from typing import Any

from bot.playground.markup import utf16_len
from bot.playground.world import FORUM_ID, GROUP_ID
from tests.bot.playground.conftest import ANYA, BORIS, GM, Served


def events_of(served: Served) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    served.play.world.subscribe(events.append)
    return events


async def new_game(served: Served) -> None:
    await served.play.write(GM, GROUP_ID, "/newgame savage Тени")
    await served.play.write(ANYA, GROUP_ID, "/join")
    await served.play.write(BORIS, GROUP_ID, "/join")


async def test_a_command_gets_a_threaded_html_reply(served: Served):
    asked = await served.play.write(GM, GROUP_ID, "/newgame savage Тени")
    [answer] = served.bot_messages(GROUP_ID)
    assert answer.reply_to == asked.id and answer.id == asked.id + 1  # per-chat ids
    # offsets in UTF-16 code units, as Telegram counts them (the 🎲 in front takes two)
    offset = utf16_len(answer.text[: answer.text.index("Тени")])
    assert offset == answer.text.index("Тени") + 1
    assert {"type": "bold", "offset": offset, "length": 4} in answer.entities
    view = served.play.world.message_view(answer)
    assert "<b>Тени</b>" in view["html"] and view["reply"]["id"] == asked.id
    assert "<b>" not in answer.text  # Telegram keeps text and entities, not the HTML


async def test_a_button_press_edits_in_place_or_answers_with_a_toast(served: Served):
    await new_game(served)
    events = events_of(served)
    await served.play.write(ANYA, GROUP_ID, "/r 2d6")
    roll = served.last(GROUP_ID)
    assert roll.reply_markup is not None
    await served.play.press(BORIS, GROUP_ID, roll.id, 0, 0)  # not his roll
    [toast] = [e for e in events if e["type"] == "toast"]
    assert toast["user"] == BORIS and "только тот, кто бросал" in toast["text"]
    await served.play.press(ANYA, GROUP_ID, roll.id, 0, 0)
    reroll = served.last(GROUP_ID)
    assert reroll.id > roll.id and reroll.reply_to == roll.id and "перебрасывает" in reroll.text


async def test_the_fight_board_is_one_message_edited_in_place(served: Served):
    await new_game(served)
    await served.play.write(GM, GROUP_ID, "/fight")
    await served.play.write(GM, GROUP_ID, "/add Пустой (Статист, ×2) Драка d6; Защита 5")
    [board] = [m for m in served.bot_messages(GROUP_ID) if m.reply_markup and "Бой" in m.text]
    before = board.text
    assert "Пустой" in before and board.edit_date is not None  # /add edited it
    deal = [
        (r, c)
        for r, row in enumerate(board.reply_markup["inline_keyboard"])  # type: ignore[index]
        for c, button in enumerate(row)
        if button.get("callback_data", "").startswith("cmb:next")
    ]
    await served.play.press(GM, GROUP_ID, board.id, *deal[0])
    assert "раунд 1" in served.chat(GROUP_ID).messages[board.id].text != before
    # In a group the Mini App button is a t.me link (web_app buttons are for private chats).
    buttons = [b for row in board.reply_markup["inline_keyboard"] for b in row]  # type: ignore[index]
    assert any(b.get("url", "").startswith("https://t.me/kosti_playground_bot/") for b in buttons)
    assert not any("web_app" in b for b in buttons)


async def test_a_hidden_roll_waits_for_a_player_who_never_opened_the_bot(served: Served):
    await new_game(served)
    sent = await served.play.write(BORIS, GROUP_ID, "/hr 2d6 засада")
    assert sent.id not in served.group.messages  # the bot may delete: the secret is gone
    assert served.bot_messages(BORIS) == []  # 403: he never opened the bot
    receipt = served.last(GROUP_ID)
    [link] = [b["url"] for row in receipt.reply_markup["inline_keyboard"] for b in row]  # type: ignore[index]
    assert link.startswith("https://t.me/kosti_playground_bot?start=")
    await served.play.start(BORIS, link.partition("start=")[2])
    texts = [m.text for m in served.bot_messages(BORIS)]
    assert any("скрытый бросок" in t and "2d6" in t for t in texts), texts


async def test_forum_topics_keep_their_threads_and_privacy_mode_holds(served: Served):
    fight, dice = list(served.forum.topics)
    asked = await served.play.write(GM, FORUM_ID, "/newgame savage Форум", thread=fight)
    [answer] = served.bot_messages(FORUM_ID)
    assert answer.thread_id == fight and answer.reply_to == asked.id
    await served.play.write(ANYA, FORUM_ID, "/r d6", thread=dice)
    assert served.last(FORUM_ID).thread_id == dice
    fed = served.play.fed
    await served.play.write(ANYA, FORUM_ID, "всем привет", thread=dice)
    assert served.play.fed == fed  # the bot is no admin there: it gets commands only
    await served.play.write(ANYA, FORUM_ID, "ещё", reply_to=served.last(FORUM_ID).id - 1)
    assert served.play.fed == fed + 1  # a reply to the bot's message does reach it


async def test_the_command_menu_is_set(served: Served):
    commands = served.play.world.commands
    assert {"", "ru", "en"} <= set(commands)
    assert {"command": "r", "description": "Бросить кубики: /r 2к6+1"} in commands["ru"]


async def test_in_a_private_chat_the_mini_app_is_a_web_app_button_and_the_menu(served: Served):
    await new_game(served)
    await served.play.start(GM)
    await served.play.write(GM, GROUP_ID, "/app")
    group_button = served.last(GROUP_ID).reply_markup["inline_keyboard"][0][0]  # type: ignore[index]
    assert "url" in group_button and "web_app" not in group_button
    await served.play.write(GM, GM, "/app")
    buttons = [b for row in served.last(GM).reply_markup["inline_keyboard"] for b in row]  # type: ignore[index]
    assert any("web_app" in b for b in buttons), buttons
    menu = served.play.world.menu_button
    assert menu["type"] == "web_app" and menu["web_app"]["url"].endswith("/app/")


async def test_a_refused_press_is_an_alert_for_the_one_who_pressed(served: Served):
    await new_game(served)
    await served.play.write(GM, GROUP_ID, "/fight")
    await served.play.write(GM, GROUP_ID, "/add Пустой (Статист, ×2) Драка d6; Защита 5")
    [board] = [m for m in served.bot_messages(GROUP_ID) if m.reply_markup and "Бой" in m.text]
    events = events_of(served)
    await served.play.press(ANYA, GROUP_ID, board.id, 0, 0)  # «Раздать» is the GM's
    [alert] = [e for e in events if e["type"] == "toast"]
    assert alert["user"] == ANYA and alert["alert"] is True and alert["text"]
    assert "карты ещё не розданы" in served.chat(GROUP_ID).messages[board.id].text
