"""The GM's preparation stays private (issue 25, item 3): NPC templates entered, shown and
healed in the private chat with the bot for the game chosen with /games; in the group the
bot names an NPC but never posts its pools, health, wounds or soak — a short fight through
the fake Bot API checks every group message and edit."""

from __future__ import annotations

import asyncio
import re

from engine.dice.rng import ScriptedRng
from engine.services import find_game
from engine.services.storyteller import list_characters
from tests.bot.conftest import ALICE, BORIS, GROUP
from tests.bot.systems.storyteller.test_fight import Table, said, told
from tests.support.telegram import Feed, TelegramDriver, private

VERA = (
    "Имя: Вероника\nАтрибуты: Сила 2, Ловкость 4, Выносливость 2, Восприятие 3, "
    "Сообразительность 3\nСпособности: Фехтование 2, Уворот 3\nОружие: Нож"
)
THUG = (
    "Имя: Бандит\nАтрибуты: Сила 3, Ловкость 2, Выносливость 2, Сообразительность 2\n"
    "Способности: Фехтование 2\nСила воли: 3\nОружие: Нож"
)
BOUNCER = THUG.replace("Бандит", "Вышибала")
BOARD_WORDS = ("[", "инициатива", "Сила воли", "кубик")  # a track, a total, Willpower, a penalty


async def dm(tg: TelegramDriver, text: str, faces: list[int] | None = None) -> Feed:
    tg.dp["rng"] = ScriptedRng(faces or [])
    return await tg.send(ALICE, private(ALICE), text)


def npc_leaks(text: str, npcs: tuple[str, ...]) -> list[str]:
    """The lines of a group message that carry a hidden number of an NPC."""
    out = []
    for line in text.splitlines():
        plain = re.sub(r"<[^>]+>", "", line)
        for npc in npcs:
            if f"Имя: {npc}" in plain or (npc in plain and "Атрибуты" in plain):
                out.append(line)  # its sheet
            if re.search(rf"{npc}.* получает \d+ уровн", plain):
                out.append(line)  # its wound levels
            if re.match(rf"\W*\s*{npc}\b", plain) and any(w in plain for w in BOARD_WORDS):
                out.append(line)  # its board line with a track or an initiative total
            if re.match(rf"(⚔️ Атака: {npc}|🛡 {npc})", plain) and "[" in plain:
                out.append(line)  # its own roll's dice (attack, defense, soak)
            if re.match(rf"🛡 {npc} поглощает", plain):
                out.append(line)  # its soak's successes (with the damage: its levels)
            if "Заживление" in plain and npc in plain and "•" in text:
                out.append(line)  # its wounds' healing
    return out


async def test_the_gms_preparation_stays_private(tg: TelegramDriver) -> None:
    table = Table(tg)
    await table.say(ALICE, "/newgame сказитель Ночной город")
    await table.say(BORIS, "/join")
    # before /games the private chat says how to choose the game; nothing is saved
    hint = said(await dm(tg, "/npc " + THUG), ALICE.id)
    assert "/games" in hint and "Неизвестная команда" not in hint
    game = await find_game(GROUP.id, None)
    assert game is not None and await list_characters(game.id) == []
    [menu] = (await dm(tg, "/games")).sent()
    await tg.press(ALICE, menu)
    start = tg.api.mark()

    saved = await dm(tg, "/npc " + THUG)
    assert [c.chat_id for c in saved.sent()] == [ALICE.id]
    assert "Шаблон NPC сохранён: <b>Бандит</b>" in saved.only_text()
    assert "Сила 3" in said(await dm(tg, "/char Бандит"), ALICE.id)
    assert "Бандит — шаблон NPC" in said(await dm(tg, "/chars"), ALICE.id)
    # a template pasted in the group anyway: the group reads its name, the GM the sheet
    pasted = await table.say(ALICE, "/npc " + BOUNCER)
    assert "Вышибала" in said(pasted) and "Сила 3" in said(pasted, ALICE.id)
    shown = await table.say(ALICE, "/char Вышибала")
    assert "шаблон NPC" in said(shown) and "Атрибуты" in said(shown, ALICE.id)

    await table.say(BORIS, "/char " + VERA)
    await table.say(ALICE, "/fight")
    await table.say(ALICE, "/add Вероника")
    await table.say(ALICE, "/add Бандит")
    await table.say(ALICE, "/init", [9, 1])  # Vera 4 + 3 + 9 = 16, the thug 2 + 2 + 1 = 5
    # Vera's knife (Dex 4 + Melee 2 at 4): two successes, one damage die more; Strength 2 +
    # 1 + 1 = four lethal levels the thug cannot soak
    feed = await table.say(BORIS, "/attack Вероника Бандит Нож", [9, 9, 2, 2, 2, 2, 9, 9, 9, 9])
    (review,) = feed.sent(ALICE.id)
    assert "4 уровня летальных" in review.text  # the GM sees the levels in the review
    published = await table.press(ALICE, review, "Опубликовать")
    assert "Бандит</b> получает повреждения" in told(published)
    # the thug strikes back, wounded (−2): Dex 2 + Melee 2 − 2, then Vera's soak
    feed = await table.say(ALICE, "/attack Бандит Вероника Нож", [9, 9, 2, 2, 2, 2, 2])
    (review,) = feed.sent(ALICE.id)
    await table.press(ALICE, review, "Опубликовать")
    # the GM's look at the thug's wounds: in private; asked in the group, sent there
    healing = said(await dm(tg, "/heal Бандит"), ALICE.id)
    assert "Заживление" in healing and "летальные" in healing
    asked = await table.say(ALICE, "/heal Бандит")
    assert "летальные" in said(asked, ALICE.id) and "летальные" not in said(asked)

    group = [
        c
        for c in tg.api.since(start)
        if c.chat_id == GROUP.id and c.method in ("sendMessage", "editMessageText")
    ]
    assert group and any("Бандит" in c.text for c in group)
    leaks = [ln for c in group for ln in npc_leaks(c.text, ("Бандит", "Вышибала"))]
    assert leaks == []
    # the same check catches what the group was told before this change
    old = "🩸 <b>Бандит</b> получает 4 уровня летальных повреждений."
    assert npc_leaks(old, ("Бандит",)) == [old]


async def test_an_npc_sent_in_the_group_is_one_step_and_a_refused_copy_is_told_after(
    tg: TelegramDriver, journaled: TelegramDriver
) -> None:
    """/npc in the group through the runner's journaling bot: the template and both answers
    commit together and the handler does not wait for the GM's copy; refused (the GM
    blocked the bot), the group's answer is edited to say how to open the private chat."""
    table = Table(journaled)
    await table.say(ALICE, "/newgame сказитель Ночной город")
    journaled.api.forbid(ALICE.id)
    mark = journaled.api.mark()
    await table.say(ALICE, "/npc " + THUG)
    game = await find_game(GROUP.id, None)
    assert game is not None
    assert [r.name for r in await list_characters(game.id, viewer_id=ALICE.id)] == ["Бандит"]
    async with asyncio.timeout(5):
        while not journaled.api.since(mark, "editMessageText"):
            await asyncio.sleep(0.02)
    [answer] = [c for c in journaled.api.sent(mark, GROUP.id) if "Шаблон NPC" in c.text]
    [edit] = journaled.api.since(mark, "editMessageText")
    assert edit.params["message_id"] == answer.result["message_id"]
    assert "Шаблон NPC сохранён" in edit.text and "Откройте личный чат с ботом" in edit.text
    assert "Атрибуты" not in answer.text + edit.text  # the group never reads the sheet
