"""Sheets people can paste (issue 12, item 7), through the fake Bot API: the README's
example as is, the Russian editions' names, warnings for what no table knows, players by
name, NPC sheets entered in the private chat and kept out of the group."""

from __future__ import annotations

import re
from pathlib import Path

from engine.services import find_game
from engine.services.savage import get_character, list_characters
from tests.bot.conftest import ALICE, BORIS, GROUP, VERA
from tests.support.telegram import TelegramDriver, private

README = Path(__file__).resolve().parents[4] / "README.md"
HOLLOW = "Пустой (Статист, ×3) Характер d4, Сила d8; Рукопашный бой d6; Защита 5, Стойкость 7"


def readme_example() -> str:
    """The block under «### Лист персонажа» of the README, as a user copies it."""
    section = README.read_text(encoding="utf-8").split("### Лист персонажа", 1)[1]
    found = re.search(r"```text\n(.*?)```", section, re.DOTALL)
    assert found is not None, "the README has no example block under «Лист персонажа»"
    return found.group(1).strip()


async def new_game(tg: TelegramDriver) -> int:
    await tg.send(ALICE, GROUP, "/newgame дикий Пустые земли")
    await tg.send(VERA, GROUP, "/join")
    await tg.send(BORIS, GROUP, "/join")
    game = await find_game(GROUP.id, None)
    assert game is not None
    return game.id


async def test_the_readme_example_pastes_as_is(tg: TelegramDriver) -> None:
    game_id = await new_game(tg)
    example = readme_example()
    assert example.startswith("/char ") and "\n" in example  # several lines, as pasted
    answer = (await tg.send(VERA, GROUP, example)).only_text()
    assert "Сохранено: <b>Ичиго</b>" in answer and "⚠️" not in answer
    record = await get_character(game_id, "Ичиго")
    c = record.character
    assert record.owner_id == VERA.id and c.die("spirit") is not None  # «Характер»
    assert c.edges == ("level_headed", "quick") and (c.parry, c.toughness) == (7, 8)
    # the player by name, the edges as the chat says them
    assert "Ичиго (Дикий, игрок Вера)" in answer and str(VERA.id) not in answer
    assert "Черты: Хладнокровие, Быстрота" in answer


async def test_an_unknown_trait_is_a_warning_naming_it(tg: TelegramDriver) -> None:
    game_id = await new_game(tg)
    block = "/char Рукия (Дикая) Дух d8, Кулинария d6; Драка d8; Черты: Ледяной взор"
    answer = (await tg.send(VERA, GROUP, block)).only_text()
    assert "Сохранено: <b>Рукия</b>" in answer
    assert "⚠️ «Кулинария» — такой характеристики я не знаю" in answer
    assert "⚠️ «Ледяной взор» — такой черты или изъяна я не знаю" in answer
    record = await get_character(game_id, "Рукия")
    assert record.character.die("кулинария") is not None  # kept, not dropped
    assert record.character.edges == ("Ледяной взор",)


async def test_a_player_sheet_shows_the_players_name(tg: TelegramDriver) -> None:
    await new_game(tg)
    await tg.send(VERA, GROUP, "/char " + readme_example().removeprefix("/char "))
    shown = await tg.send(VERA, GROUP, "/char Ичиго")
    [sheet] = [c for c in shown.sent() if c.chat_id == VERA.id]
    assert "игрок Вера" in sheet.text and "игрок 103" not in sheet.text
    # the GM pastes it back as shown: the owner stays Vera
    block = sheet.text.removeprefix("<code>").removesuffix("</code>")
    again = (await tg.send(ALICE, GROUP, "/char " + block)).only_text()
    assert "Сохранено: <b>Ичиго</b>" in again and "игрок Вера" in again


async def test_the_gm_enters_an_npc_in_the_private_chat(tg: TelegramDriver) -> None:
    game_id = await new_game(tg)
    hint = (await tg.send(ALICE, private(ALICE), "/char " + HOLLOW)).only_text()
    assert "/games" in hint  # no game chosen yet: nothing saved
    assert await list_characters(game_id) == []

    [menu] = (await tg.send(ALICE, private(ALICE), "/games")).sent()
    await tg.press(ALICE, menu)
    before = len(tg.api.calls)
    saved = await tg.send(ALICE, private(ALICE), "/char " + HOLLOW)
    assert [c.chat_id for c in saved.sent()] == [ALICE.id]
    text = saved.only_text()
    assert "Шаблон NPC сохранён: <b>Пустой</b>" in text and "Драка d6" in text
    assert all(c.chat_id != GROUP.id for c in tg.api.calls[before:])
    [record] = await list_characters(game_id)
    assert record.template and record.count == 3 and record.character.die("fighting")

    listed = (await tg.send(ALICE, private(ALICE), "/chars")).only_text()
    assert "Пустой ×3 — шаблон" in listed
    # players never see it; the GM brings it into the fight in the group
    assert "Пустой" not in (await tg.send(VERA, GROUP, "/chars")).only_text()
    await tg.send(ALICE, GROUP, "/fight")
    added = (await tg.send(ALICE, GROUP, "/add Пустой")).only_text()
    assert "Пустой" in added and "Стойкость 7" not in added


async def test_an_npc_pasted_in_the_group_is_sent_to_the_gm(tg: TelegramDriver) -> None:
    await new_game(tg)
    await tg.send(ALICE, private(ALICE), "/start")
    feed = await tg.send(ALICE, GROUP, "/char " + HOLLOW)
    [in_group] = feed.sent(GROUP.id)
    assert "Пустой" in in_group.text and "Драка d6" not in in_group.text
    assert "в личке" in in_group.text or "личном чате" in in_group.text
    [in_private] = feed.sent(ALICE.id)
    assert "Драка d6" in in_private.text and "Стойкость 7" in in_private.text


async def test_an_npc_pasted_in_the_group_without_a_private_chat(tg: TelegramDriver) -> None:
    """The GM never started the bot: the group still gets no stat block, but how to keep
    the next one private; the template is saved."""
    game_id = await new_game(tg)
    tg.api.forbid(ALICE.id)
    feed = await tg.send(ALICE, GROUP, "/char " + HOLLOW + "; Кулинария d6")
    [in_group] = feed.sent(GROUP.id)
    assert "Шаблон NPC сохранён: <b>Пустой</b>" in in_group.text and "/games" in in_group.text
    assert "Драка d6" not in in_group.text and "Стойкость 7" not in in_group.text
    assert "⚠️ «Кулинария»" in in_group.text  # the warning still reaches the GM
    assert [r.name for r in await list_characters(game_id)] == ["Пустой"]
