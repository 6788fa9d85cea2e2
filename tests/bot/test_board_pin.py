"""The live board stays findable (issue 27, item 4), through the fake Bot API, which refuses
pinning in a group as Telegram does unless the bot is an admin with the right to pin: a fight
started where the bot may not pin tells the GM once, in private; /board (and «⬇️ Доска вниз»
under a turn's message) posts the board again at the bottom and retires the old copy (one
line, no buttons); where the bot may pin, the board is pinned and the retired copy unpinned;
an ended fight is unpinned."""

from __future__ import annotations

from typing import Any

from engine.storyteller.sheet import format_sheet
from tests.bot.conftest import ALICE, BORIS, GROUP, VERA
from tests.bot.systems.savage.test_combat import BOARD_TITLE, Table, set_up_table, text_of
from tests.engine.storyteller import test_fight as scripted
from tests.support.telegram import TelegramDriver

NOT_PINNED = "Закрепить доску боя в этом чате я не могу"


def boards(feed: Any) -> list[Any]:
    return [c for c in feed.sent(GROUP.id) if c.text.startswith(BOARD_TITLE)]


def retired_copies(feed: Any, board: Any) -> list[Any]:
    """The edits of the old copy `board` in `feed`."""
    old = board.result["message_id"]
    return [
        c for c in feed.calls if c.method == "editMessageText" and c.params["message_id"] == old
    ]


async def test_the_board_is_pinned_where_the_bot_may_and_board_brings_it_down(
    tg: TelegramDriver,
) -> None:
    table = Table(tg)
    await set_up_table(table)
    nothing = await table.say(BORIS, "/board")
    assert "Здесь не идёт ни бой, ни погоня" in text_of(nothing)
    assert boards(nothing) == []

    # the bot is a plain member: Telegram refuses the pin, the GM hears it once, in private
    started = await table.say(ALICE, "/fight")
    (first,) = boards(started)
    refused = [c for c in started.calls if c.method == "pinChatMessage"]
    assert [c.params["message_id"] for c in refused] == [first.result["message_id"]]
    assert refused[0].result is None  # refused: «not enough rights to manage pinned messages»
    told = started.sent(ALICE.id)
    assert len(told) == 1 and NOT_PINNED in told[0].text and "/board" in told[0].text
    assert not any(NOT_PINNED in c.text for c in started.sent(GROUP.id))

    again = await table.say(BORIS, "/board")  # anyone may bring it down
    (second,) = boards(again)
    assert second.result["message_id"] != first.result["message_id"]
    retired = retired_copies(again, first)
    assert [c.text for c in retired] == ["Живая доска — ниже ⬇️"]
    assert not retired[0].reply_markup  # its buttons are gone: one live copy
    assert again.sent(ALICE.id) == []  # told once, not at every new copy
    assert tg.api.pinned == {}

    # made an admin with the right to pin: /board pins the new copy, the old one is unpinned
    tg.api.grant_pin(GROUP.id)
    pinned = await table.say(BORIS, "/board")
    (third,) = boards(pinned)
    assert tg.api.pinned[GROUP.id] == [third.result["message_id"]]
    assert pinned.sent(ALICE.id) == []
    edited = await table.say(ALICE, "/add Ичиго")  # a step edits the pinned board in place
    assert boards(edited) == [] and tg.api.pinned[GROUP.id] == [third.result["message_id"]]
    assert table.board().params.get("message_id") == third.result["message_id"]

    # the turn's ping carries «⬇️ Доска вниз»: one tap does what /board does
    dealt = await table.say(ALICE, "/next")
    (ping,) = [c for c in dealt.sent(GROUP.id) if "👉" in c.text]
    down = await table.press(VERA, ping, "⬇️ Доска вниз")  # anyone at the table
    (fourth,) = boards(down)
    assert tg.api.pinned[GROUP.id] == [fourth.result["message_id"]]
    assert [c.text for c in retired_copies(down, third)] == ["Живая доска — ниже ⬇️"]
    assert not [c for c in down.calls if c.params.get("show_alert")]

    await table.say(ALICE, "/fight конец")  # over: nothing to find any more
    assert tg.api.pinned[GROUP.id] == []


async def test_the_storytellers_board_is_pinned_too(tg: TelegramDriver) -> None:
    """Its board renderer pins a new copy the same way (bot/systems/storyteller/board.py);
    «/fight» in a running fight and /board post it again below and retire the old copy."""
    tg.api.grant_pin(GROUP.id)
    await tg.send(ALICE, GROUP, "/newgame сказитель Ночной город")
    nothing = await tg.send(BORIS, GROUP, "/board")
    assert [c.text for c in nothing.sent(GROUP.id)] == [
        "Здесь не идёт бой: ведущий начинает его командой /fight."
    ]
    first = [
        c for c in (await tg.send(ALICE, GROUP, "/fight")).calls if c.method == "pinChatMessage"
    ]
    assert len(first) == 1 and tg.api.pinned[GROUP.id] == [first[0].params["message_id"]]
    again = await tg.send(ALICE, GROUP, "/fight")
    (pinned,) = [c.params["message_id"] for c in again.calls if c.method == "pinChatMessage"]
    assert tg.api.pinned[GROUP.id] == [pinned] and pinned != first[0].params["message_id"]
    retired = [c for c in again.calls if c.method == "editMessageText"]
    assert [c.text for c in retired] == ["Живая доска — ниже ⬇️"]
    down = await tg.send(BORIS, GROUP, "/board")  # its own /board: the same
    (last,) = [c.params["message_id"] for c in down.calls if c.method == "pinChatMessage"]
    assert tg.api.pinned[GROUP.id] == [last] and last != pinned

    # a new turn's message carries «⬇️ Доска вниз»: one tap does what /board does
    await tg.send(ALICE, GROUP, "/npc " + format_sheet(scripted.BOSS))
    await tg.send(ALICE, GROUP, "/add Босс")
    turn = await tg.send(ALICE, GROUP, "/init")
    (ping,) = [c for c in turn.sent(GROUP.id) if c.text.startswith("Ход 1")]
    index = [b["text"] for b in ping.buttons()].index("⬇️ Доска вниз")
    pressed = await tg.press(BORIS, ping, index)
    (moved,) = [c.params["message_id"] for c in pressed.calls if c.method == "pinChatMessage"]
    assert tg.api.pinned[GROUP.id] == [moved] and moved != last
    assert [c.text for c in pressed.calls if c.method == "editMessageText"] == [
        "Живая доска — ниже ⬇️"
    ]
    assert not [c for c in pressed.calls if c.params.get("show_alert")]
    await tg.send(ALICE, GROUP, "/fight конец")  # over: the old ping's button says so
    late = await tg.press(BORIS, ping, index)
    (alert,) = [c for c in late.calls if c.params.get("show_alert")]
    assert alert.params["text"] == "В этой игре сейчас нет боя." and late.sent(GROUP.id) == []
