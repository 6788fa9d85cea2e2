"""Hidden rolls end to end: private copies, the sealed receipt, the reveal that checks out,
refused private messages kept until /start, private rolls for a chosen game."""

from __future__ import annotations

import hashlib
import re

from aiogram import Dispatcher

from engine.dice import ScriptedRng
from tests.bot.conftest import ALICE, BORIS, GROUP, VERA
from tests.support.fake_botapi import BOT_USERNAME, ApiCall, FakeBotAPI
from tests.support.telegram import Feed, TelegramDriver, group, private

CODE = re.compile(r"Код квитанции: <code>([0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4})</code>")
LONG_HASH = re.compile(r"[0-9a-f]{64}")
ROLL_ID = re.compile(r"/reveal (\d+)")


async def _game_with_player(tg: TelegramDriver) -> None:
    """Alice is the GM of the group's game, Boris a player; both started the bot."""
    await tg.send(ALICE, GROUP, "/newgame дикий Тени")
    await tg.send(BORIS, GROUP, "/join")
    await tg.send(ALICE, private(ALICE), "/start")
    await tg.send(BORIS, private(BORIS), "/start")


def _only(calls: list[ApiCall]) -> ApiCall:
    assert len(calls) == 1, [c.text for c in calls]
    return calls[0]


def receipt_names_alice(edits: list[ApiCall], receipt: ApiCall) -> None:
    """The one edit of `receipt` names Alice, whose copy was refused, with the start link."""
    [edit] = edits
    assert (edit.chat_id, edit.params["message_id"]) == (GROUP.id, receipt.result["message_id"])
    assert edit.text.split("\n\n")[0] == receipt.text.split("\n\n")[0]  # the same receipt
    assert "<b>Алиса</b>, я не могу написать вам в личку" in edit.text
    [button] = edit.buttons()
    assert button["url"] == f"https://t.me/{BOT_USERNAME}?start=hr"


async def test_hidden_roll_reaches_only_roller_and_gm_and_the_receipt_checks_out(
    tg: TelegramDriver, dp: Dispatcher
) -> None:
    await _game_with_player(tg)
    dp["rng"] = ScriptedRng([4, 2])
    feed = await tg.send(BORIS, GROUP, "/hr 2d6+1 скрытность")

    assert {c.chat_id for c in feed.sent()} == {BORIS.id, ALICE.id, GROUP.id}
    assert feed.sent(VERA.id) == []
    roller = _only(feed.sent(BORIS.id))
    gm = _only(feed.sent(ALICE.id))
    receipt_msg = _only(feed.sent(GROUP.id))

    for private_copy in (roller, gm):
        assert "2d6 [4, 2] + 1 = <b>7</b>" in private_copy.text
    assert gm.buttons()[0]["text"] == "🔓 Раскрыть"
    assert roller.buttons() == []
    # The group sees who and when, and the receipt, never the dice.
    assert "[4, 2]" not in receipt_msg.text and "<b>7</b>" not in receipt_msg.text
    assert re.match(
        r"🔒 Скрытый бросок №\d+: <b>Борис &lt;b&gt;</b>, \d\d\.\d\d\.\d{4} \d\d:\d\d MSK\. ",
        receipt_msg.text,
    )
    assert LONG_HASH.search(receipt_msg.text) is None  # a short code, not the digest
    assert receipt_msg.params["reply_parameters"]["message_id"] == feed.message["message_id"]
    receipt_code = CODE.search(receipt_msg.text).group(1)
    assert receipt_code in roller.text  # the roller can compare it too

    # A player cannot reveal; the GM's button does.
    roll_id = ROLL_ID.search(receipt_msg.text).group(1)
    refused = await tg.send(BORIS, GROUP, f"/reveal {roll_id}")
    assert refused.only_text() == "Это может только ведущий игры."

    pressed = await tg.press(ALICE, gm)
    revealed = _only(pressed.sent(GROUP.id))
    assert "2d6 [4, 2] + 1 = <b>7</b>" in revealed.text
    assert CODE.search(revealed.text).group(1) == receipt_code
    assert LONG_HASH.search(revealed.text) is None and "{" not in revealed.text
    # No public check page here (no HTTPS PUBLIC_URL): the hashed text comes as a file.
    [document] = [c for c in pressed.calls if c.method == "sendDocument"]
    digest = hashlib.sha256(document.params["document"]["content"]).hexdigest()
    assert digest[:12] == receipt_code.replace("-", "")
    assert digest in document.params["caption"]
    assert "editMessageReplyMarkup" in pressed.methods()

    again = await tg.send(ALICE, GROUP, f"/reveal {roll_id}")
    assert again.only_text() == f"Бросок №{roll_id} уже раскрыт."


async def test_reveal_command_by_the_gm(tg: TelegramDriver, dp: Dispatcher) -> None:
    await _game_with_player(tg)
    dp["rng"] = ScriptedRng([8, 3, 5])
    feed = await tg.send(BORIS, GROUP, "/hr t d8")
    roll_id = ROLL_ID.search(_only(feed.sent(GROUP.id)).text).group(1)

    assert "/reveal 12" in (await tg.send(ALICE, GROUP, "/reveal")).only_text()
    shown = await tg.send(ALICE, GROUP, f"/reveal {roll_id}")
    text = shown.only_text(GROUP.id)
    assert "Кость черты d8! [8💥, 3] = 11 ✓" in text
    assert "<b>подъём</b>" in text


async def test_reveal_by_the_receipt_code_the_group_saw(tg: TelegramDriver, dp: Dispatcher) -> None:
    """Issue «What a player sees on a phone»: the GM types the code from the group's receipt
    line instead of the roll's number; a code of no waiting roll of the GM's games is told."""
    await _game_with_player(tg)
    dp["rng"] = ScriptedRng([8, 3, 5])
    feed = await tg.send(BORIS, GROUP, "/hr t d8")
    code = CODE.search(_only(feed.sent(GROUP.id)).text).group(1)

    # a player's games have no roll of that code to reveal: only a GM's count
    refused = (await tg.send(BORIS, GROUP, f"/reveal {code}")).only_text()
    assert refused == f"В ваших играх нет нераскрытого скрытого броска с кодом {code}."
    shown = await tg.send(ALICE, GROUP, f"/reveal {code.upper().replace('-', '')}")
    assert "Кость черты d8! [8💥, 3] = 11 ✓" in shown.only_text(GROUP.id)
    # revealed now: the code no longer stands for a roll waiting
    again = (await tg.send(ALICE, GROUP, f"/reveal {code}")).only_text()
    assert again == f"В ваших играх нет нераскрытого скрытого броска с кодом {code}."


async def test_private_message_refused_then_delivered_after_start(
    tg: TelegramDriver, dp: Dispatcher, api: FakeBotAPI
) -> None:
    await tg.send(ALICE, GROUP, "/newgame сказитель Ночь")
    await tg.send(BORIS, GROUP, "/join")
    api.forbid(ALICE.id)  # the GM never started the bot
    api.forbid(BORIS.id)  # nor did the roller

    dp["rng"] = ScriptedRng([10, 7, 1, 3, 6])
    feed = await tg.send(BORIS, GROUP, "/hr p 5 6")
    assert feed.sent(ALICE.id) == [] and feed.sent(BORIS.id) == []
    notice = _only(feed.sent(GROUP.id))
    assert "<b>Борис &lt;b&gt;</b>, я не могу написать вам в личку" in notice.text
    assert "<b>Алиса</b>, я не могу написать вам в личку" in notice.text
    [button] = notice.buttons()
    assert button["url"] == f"https://t.me/{BOT_USERNAME}?start=hr"

    api.allow(ALICE.id)
    started = await tg.send(ALICE, private(ALICE), "/start hr")
    texts = [c.text for c in started.sent(ALICE.id)]
    assert texts[0].startswith("Привет, <b>Алиса</b>!")
    [gm_copy] = [c for c in started.sent(ALICE.id) if "Скрытый бросок" in c.text]
    assert "[<b>10</b>, <b>7</b>, 1, 3, <b>6</b>]" in gm_copy.text
    assert gm_copy.buttons()[0]["text"] == "🔓 Раскрыть"

    api.allow(BORIS.id)
    started = await tg.send(BORIS, private(BORIS), "/start")
    [roller_copy] = [c for c in started.sent(BORIS.id) if "Ваш скрытый бросок" in c.text]
    assert "успехов: <b>2</b>" in roller_copy.text

    # Delivered exactly once.
    again = await tg.send(ALICE, private(ALICE), "/start hr")
    assert [c for c in again.sent(ALICE.id) if "Скрытый бросок" in c.text] == []


async def test_a_copy_refused_after_start_is_added_to_the_receipt_sent_with_the_copies(
    tg: TelegramDriver, dp: Dispatcher, api: FakeBotAPI
) -> None:
    await _game_with_player(tg)
    api.forbid(ALICE.id)  # the GM blocked the bot since /start
    dp["rng"] = ScriptedRng([4, 2])
    mark = api.mark()
    feed = await tg.send(BORIS, GROUP, "/hr 2d6+1")
    receipt = _only(feed.sent(GROUP.id))
    # Both had started the bot: the receipt went out with the copies, before any refusal.
    assert "не могу написать" not in receipt.text and receipt.buttons() == []
    assert "[4, 2]" in _only(feed.sent(BORIS.id)).text and feed.sent(ALICE.id) == []
    receipt_names_alice(api.since(mark, "editMessageText"), receipt)

    api.allow(ALICE.id)  # unblocked: the copy waited for her next /start
    started = await tg.send(ALICE, private(ALICE), "/start hr")
    assert any("2d6 [4, 2] + 1 = <b>7</b>" in c.text for c in started.sent(ALICE.id))


async def test_hidden_roll_needs_a_game(tg: TelegramDriver) -> None:
    text = (await tg.send(ALICE, GROUP, "/hr 2d6")).only_text()
    assert "в этом чате её нет" in text and "/newgame" in text
    assert "/hr 2к6+1" in (await tg.send(ALICE, GROUP, "/hr")).only_text()
    assert "/games" in (await tg.send(ALICE, private(ALICE), "/hr 2d6")).only_text()


async def test_private_roll_for_the_selected_game_is_hidden(
    tg: TelegramDriver, dp: Dispatcher
) -> None:
    await _game_with_player(tg)
    [menu] = (await tg.send(BORIS, private(BORIS), "/games")).sent()
    await tg.press(BORIS, menu)

    dp["rng"] = ScriptedRng([5, 1, 17])
    feed: Feed = await tg.send(BORIS, private(BORIS), "/r 2d6")
    # One message to the roller: the roll, and where its receipt went.
    own = _only(feed.sent(BORIS.id)).text
    assert "Ваш скрытый бросок" in own and "[5, 1]" in own and "Квитанция броска" in own
    gm = _only(feed.sent(ALICE.id))
    assert "[5, 1]" in gm.text and gm.buttons()
    receipt_msg = _only(feed.sent(GROUP.id))
    assert "[5, 1]" not in receipt_msg.text and CODE.search(receipt_msg.text)
    assert all(not c.buttons() or "rr:" not in str(c.buttons()) for c in feed.sent())

    # The GM's own roll in the private chat: one message there too, the copy with «Reveal».
    [menu] = (await tg.send(ALICE, private(ALICE), "/games")).sent()
    await tg.press(ALICE, menu)
    feed = await tg.send(ALICE, private(ALICE), "/r d20")
    gm = _only(feed.sent(ALICE.id))
    assert gm.buttons()[0]["text"] == "🔓 Раскрыть" and "Квитанция броска" in gm.text
    assert len(feed.sent()) == 2  # and the receipt in the group


async def test_start_deep_link_selects_a_game(tg: TelegramDriver) -> None:
    await _game_with_player(tg)
    card = (await tg.send(BORIS, GROUP, "/game")).only_text()
    game_id = re.search(r"№(\d+)", card).group(1)
    feed = await tg.send(BORIS, private(BORIS), f"/start game_{game_id}")
    assert any("Броски здесь теперь идут в игру <b>Тени</b>" in c.text for c in feed.sent())
    refused = await tg.send(VERA, private(VERA), f"/start game_{game_id}")
    assert any("не участвуете" in c.text for c in refused.sent())


async def test_reveal_of_many_dice_sends_the_hashed_text_as_a_file(tg: TelegramDriver) -> None:
    await _game_with_player(tg)
    feed = await tg.send(BORIS, GROUP, "/hr 100d6")
    receipt_msg = _only(feed.sent(GROUP.id))
    receipt_code = CODE.search(receipt_msg.text).group(1)
    roll_id = ROLL_ID.search(receipt_msg.text).group(1)

    shown = await tg.send(ALICE, GROUP, f"/reveal {roll_id}")
    [text] = shown.sent(GROUP.id)
    assert len(text.text) < 4096
    [document] = [c for c in shown.calls if c.method == "sendDocument"]
    assert document.chat_id == GROUP.id
    assert f"sha256sum kosti-roll-{roll_id}.txt" in document.params["caption"]
    content = document.params["document"]["content"]
    assert len(content) > 4096
    assert hashlib.sha256(content).hexdigest()[:12] == receipt_code.replace("-", "")


async def test_reveal_button_pressed_by_a_player_is_refused(tg: TelegramDriver) -> None:
    await _game_with_player(tg)
    feed = await tg.send(BORIS, GROUP, "/hr d20")
    gm_copy = _only(feed.sent(ALICE.id))
    pressed = await tg.press(BORIS, gm_copy)
    assert pressed.sent() == []
    [alert] = [c for c in pressed.calls if c.method == "answerCallbackQuery"]
    assert alert.params["text"] == "Это может только ведущий игры."


async def test_forum_topic_hidden_roll_from_the_private_chat(tg: TelegramDriver) -> None:
    forum = group(-1003000000003, "Форум", forum=True)
    await tg.send(ALICE, forum, "/newgame дикий Башня", thread_id=77)
    await tg.send(BORIS, forum, "/join", thread_id=77)
    await tg.send(ALICE, private(ALICE), "/start")
    [menu] = (await tg.send(BORIS, private(BORIS), "/games")).sent()
    await tg.press(BORIS, menu)

    feed = await tg.send(BORIS, private(BORIS), "/t d6")
    receipt_msg = _only(feed.sent(forum.id))
    assert receipt_msg.params["message_thread_id"] == 77
    roll_id = ROLL_ID.search(receipt_msg.text).group(1)

    shown = await tg.send(ALICE, forum, f"/reveal {roll_id}", thread_id=77)
    revealed = _only(shown.sent(forum.id))
    assert revealed.params["message_thread_id"] == 77
    assert "Дикий кубик" in revealed.text


async def test_gm_the_bot_never_met_is_kept_pending_too(
    tg: TelegramDriver, api: FakeBotAPI
) -> None:
    await tg.send(ALICE, GROUP, "/newgame дикий Тени")
    await tg.send(BORIS, GROUP, "/join")
    await tg.send(BORIS, private(BORIS), "/start")
    api.unknown_chats.add(ALICE.id)  # 400 "chat not found" instead of 403
    feed = await tg.send(BORIS, GROUP, "/hr d8")
    assert "<b>Алиса</b>, я не могу написать вам в личку" in _only(feed.sent(GROUP.id)).text

    api.allow(ALICE.id)
    started = await tg.send(ALICE, private(ALICE), "/start hr")
    assert any(c.buttons() and "Скрытый бросок" in c.text for c in started.sent(ALICE.id))


async def test_the_gms_own_hidden_roll_is_for_the_gm_alone(tg: TelegramDriver) -> None:
    await _game_with_player(tg)
    feed = await tg.send(ALICE, GROUP, "/hr d20")
    gm = _only(feed.sent(ALICE.id))
    assert "Его видите только вы. Раскрыть группе — кнопкой ниже." in gm.text
    assert "бросал" not in gm.text  # not «вы и тот, кто бросал» to the roller himself
    player = await tg.send(BORIS, GROUP, "/hr d20")
    assert "только вы и тот, кто бросал" in _only(player.sent(ALICE.id)).text
