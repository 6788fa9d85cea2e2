"""Issue 3 gaps, played through the fake Bot API: a benny re-rolls a trait roll (DESIGN.md
«Bennies: ... uses: re-roll a trait roll»; docs/rules/savage.md «Переброс за бенни») by
/reroll, /переброс and the «🎲 Бенни: перебросить» button; and character JSON export and
import with /char (docs/rules/chat.md)."""

from __future__ import annotations

import asyncio
import html
import json
import random
from typing import Any

from tests.bot.conftest import ALICE, BORIS, GROUP, VERA
from tests.bot.systems.savage.test_combat import GRIMMJOW, Table, set_up_table, text_of
from tests.support.fake_botapi import ApiCall
from tests.support.telegram import Feed, TelegramDriver

REROLL = "Бенни: перебросить"


def reroll_message(feed: Feed) -> ApiCall | None:
    found = [c for c in feed.sent() if any(REROLL in b["text"] for b in c.buttons())]
    return found[-1] if found else None


async def ichigo_acts(table: Table) -> None:
    """Ichigo (Level Headed: draws Q♥ and 4♦) acts before Grimmjow (3♣)."""
    await set_up_table(table)
    await table.say(ALICE, "/fight")
    await table.say(ALICE, "/add Ичиго")
    await table.say(ALICE, "/add " + GRIMMJOW)
    turn = text_of(await table.say(ALICE, "/next", await table.shuffle("QH", "4D", "3C")))
    assert "Ход: <b>Ичиго</b>" in turn


async def test_the_button_rerolls_a_miss_into_a_hit(tg: TelegramDriver) -> None:
    table = Table(tg)
    await ichigo_acts(table)
    missed = await table.say(BORIS, "/attack Гриммджо", [2, 1])  # Fighting 2 vs Parry 8
    assert "→ <b>провал</b>" in text_of(missed)
    button = reroll_message(missed)
    assert button is not None  # under the roll of Ichigo, who has 3 bennies

    # The role check on press: only Ichigo's player (or the GM).
    refused = await table.press(VERA, button, REROLL)
    (answer,) = [c for c in refused.calls if c.method == "answerCallbackQuery"]
    assert answer.params["text"].startswith("Это не ваш персонаж")

    # d10=9 vs 8: a hit now, so the damage follows (d10 3 + d6 2 = 5 vs Toughness 9).
    pressed = await table.press(BORIS, button, REROLL, [9, 1, 3, 2])
    text = text_of(pressed)
    assert "Ичиго перебрасывает за бенни — атака, Драка → Гриммджо" in text
    assert "остаётся новый результат <b>9</b>" in text and "против 8" in text
    assert "Гриммджо: урон" in text
    view = await table.state()
    assert view.state.character("ichigo").bennies == 2
    assert reroll_message(pressed) is None  # the damage is rolled: nothing left to re-roll

    # The same button again, and the alias: too late now (reroll_too_late).
    again = await table.press(BORIS, button, REROLL)
    (answer,) = [c for c in again.calls if c.method == "answerCallbackQuery"]
    assert answer.params["text"].startswith("Перебрасывать поздно")
    assert text_of(await table.say(BORIS, "/переброс")).startswith("Перебрасывать поздно")


async def test_reroll_command_keeps_the_better_and_refuses_a_critical_failure(
    tg: TelegramDriver,
) -> None:
    table = Table(tg)
    await ichigo_acts(table)
    await table.say(BORIS, "/check внимание", [3, 5])  # unskilled d4−2: 5−2 = 3
    worse = text_of(await table.say(BORIS, "/reroll", [1, 2]))
    assert "остаётся прежний результат <b>3</b>" in worse
    await table.say(ALICE, "/next")  # Grimmjow's turn: Ichigo's rolls are closed
    closed = text_of(await table.say(BORIS, "/reroll Ичиго"))
    assert closed == "В этом ходу у персонажа нет проверки, которую можно перебросить."
    fumble = await table.say(ALICE, "/attack Гриммджо Ичиго", [1, 1])
    assert reroll_message(fumble) is None  # a critical failure, and no benny either
    refused = text_of(await table.say(ALICE, "/reroll Гриммджо"))
    assert refused == "Критический провал перебросить нельзя."


async def test_char_json_export_and_import(tg: TelegramDriver, monkeypatch: Any) -> None:
    table = Table(tg)
    await set_up_table(table)
    asked = await table.say(BORIS, "/char Ичиго json")
    shown = "\n".join(c.text for c in asked.sent(chat_id=BORIS.id))  # in the private chat
    assert shown.startswith("<pre>") and shown.endswith("</pre>")
    in_group = "\n".join(c.text for c in asked.sent(chat_id=GROUP.id))
    assert "личном чате" in in_group and "bennies" not in in_group
    data = json.loads(html.unescape(shown[len("<pre>") : -len("</pre>")]))
    assert data["name"] == "Ичиго" and data["owner"] == BORIS.id and data["bennies"] == 3

    data["name"] = "Ичиго Банкай"
    data["bennies"] = 1
    saved = text_of(await table.say(BORIS, "/char " + json.dumps(data, ensure_ascii=False)))
    assert "Сохранено: <b>Ичиго Банкай</b>" in saved and "Бенни 1" in saved

    # Not a character: the Russian refusal of sheet_bad_json.
    bad = text_of(await table.say(BORIS, '/char {"name": 5}'))
    assert "JSON" in bad

    # Long JSON travels as a document.
    monkeypatch.setattr("bot.systems.savage.combat.setup.JSON_INLINE_MAX", 10)
    feed = await table.say(BORIS, "/char Ичиго json")
    (doc,) = [c for c in feed.calls if c.method == "sendDocument"]
    assert doc.chat_id == BORIS.id and doc.params["document"]["filename"] == "ichigo.json"
    assert json.loads(doc.params["document"]["content"])["name"] == "Ичиго"


async def test_a_sheet_is_the_gms_and_its_owners_and_never_posted_in_the_group(
    tg: TelegramDriver,
) -> None:
    """The chat keeps the Mini App's rule (a sheet for the GM and its owner only; DESIGN
    decision 3): another player is refused, the owner and the GM get it privately."""
    table = Table(tg)
    await set_up_table(table)
    refused = text_of(await table.say(VERA, "/char Ичиго"))
    assert "только ведущий и игрок" in refused and "Драка" not in refused
    for who in (BORIS, ALICE):
        asked = await table.say(who, "/char Ичиго")
        assert "Драка" in asked.only_text(chat_id=who.id)  # the sheet, privately
        assert "Драка" not in "\n".join(c.text for c in asked.sent(chat_id=GROUP.id))
    tg.api.forbid(BORIS.id)  # blocked the bot: told how to get it, nothing in the group
    blocked = text_of(await table.say(BORIS, "/char Ичиго"))
    assert "нажмите «Запустить»" in blocked and "Драка" not in blocked


async def test_a_double_tap_on_the_benny_button_spends_one_benny(tg: TelegramDriver) -> None:
    """Two presses of «Бенни: перебросить» in one batch: the roll they both saw is re-rolled
    once (the check is repeated inside the write); the other press hears it is too late."""
    table = Table(tg)
    await ichigo_acts(table)
    missed = await table.say(BORIS, "/attack Гриммджо", [2, 1])
    tg.dp["rng"] = random.Random(7)  # the re-roll's dice
    button = reroll_message(missed)
    assert button is not None
    index = next(i for i, b in enumerate(button.buttons()) if REROLL in b["text"])
    feeds = await asyncio.gather(tg.press(BORIS, button, index), tg.press(BORIS, button, index))
    view = await table.state()
    assert view.state.character("ichigo").bennies == 2  # 3 before: one spent
    answers = {
        c.params["callback_query_id"]: c.params.get("text", "")
        for f in feeds
        for c in f.calls
        if c.method == "answerCallbackQuery"
    }
    assert sorted(t.startswith("Перебрасывать поздно") for t in answers.values()) == [False, True]
