"""Sheets people can paste, in the Mini App editor (issue 12, item 7): the preview names what
it kept unknown, the Russian editions' names and «игрок Имя» read; an NPC template is saved
from the editor of the real process without a word in the group."""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.bot.conftest import api as api  # the fake Bot API (a fixture)
from tests.bot.test_miniapp_table import ANYA, GM, Table
from tests.bot.test_miniapp_table import table as table  # the real process (a fixture)
from tests.bot.test_runner import GROUP
from tests.webapp.conftest import GM_ID, PLAYER_ID
from tests.webapp.systems.savage.test_api_characters import base as base  # fixtures
from tests.webapp.systems.savage.test_api_characters import call
from tests.webapp.systems.savage.test_api_characters import sw as sw

EDITION = (
    "Ичиго (Дикий) Ловкость d8, Характер d8, Сила d10;\n"
    "Рукопашный бой d10, Кулинария d6;\nЧерты: Быстрота, Ледяной взор"
)
HOLLOW = "Пустой (Статист, ×3) Характер d4, Сила d8; Драка d6; Защита 5, Стойкость 7"


async def preview(client: Any, base: str, user_id: int, sheet: str, **extra: Any) -> Any:
    return await call(client, "POST", base + "/preview", user_id, body={"sheet": sheet, **extra})


async def test_the_preview_warns_naming_what_it_kept(client, sw, base) -> None:  # type: ignore[no-untyped-def]
    data = await preview(client, base, PLAYER_ID, EDITION)
    assert data["valid"] is True
    parsed = data["parsed"]
    assert {"code": "spirit", "name": "Дух", "die": "d8"} in parsed["attributes"]
    assert {"code": "fighting", "name": "Драка", "die": "d10"} in parsed["skills"]
    assert parsed["edges"] == ["Быстрота", "Ледяной взор"]
    messages = [w["message"] for w in data["warnings"]]
    assert messages == [
        "«Кулинария» — такой характеристики я не знаю: записана как отдельный навык.",
        "«Ледяной взор» — такой черты или изъяна я не знаю: записано как есть.",
    ]
    assert [w["description"]["params"]["name"] for w in data["warnings"]] == [
        "Кулинария",
        "Ледяной взор",
    ]
    saved = await call(client, "POST", base, PLAYER_ID, body={"sheet": EDITION})
    assert [w["description"]["code"] for w in saved["warnings"]] == [
        "rule.sheet_unknown_trait",
        "rule.sheet_unknown_edge",
    ]
    clean = await preview(client, base, PLAYER_ID, HOLLOW.replace("(Статист, ×3)", "(Дикий)"))
    assert clean["warnings"] == []


async def test_the_gm_names_the_player_in_the_sheet(client, sw, base) -> None:  # type: ignore[no-untyped-def]
    data = await preview(client, base, GM_ID, EDITION.replace("(Дикий)", "(Дикий, игрок аня)"))
    assert data["valid"] and data["parsed"]["owner"] == PLAYER_ID
    assert data["sheet"].startswith("Ичиго (Дикий, игрок Аня) ")
    unknown = await preview(client, base, GM_ID, EDITION.replace("(Дикий)", "(игрок Ева)"))
    assert unknown["valid"] is False
    assert unknown["error"]["message"] == "В этой игре нет игрока по имени «Ева»."


async def test_an_npc_template_from_the_editor_posts_nothing_to_the_group(table: Table) -> None:
    await table.say(GM, "/newgame savage Пустота")
    await table.say(ANYA, "/join")
    [button] = (await table.say(GM, "/app")).buttons()
    [table.token] = parse_qs(urlsplit(button["url"]).query)["startapp"]
    mark = table.api.mark()
    saved = await table.call(GM, "POST", "characters", {"sheet": HOLLOW, "template": True})
    assert saved["character"]["template"] and saved["character"]["count"] == 3
    library = await table.call(ANYA, "GET", "characters")
    assert library["characters"] == []  # the player's list holds no template
    await asyncio.sleep(0.5)  # the bot's background work after a save, if there were any
    assert [c for c in table.api.since(mark) if c.chat_id == GROUP["id"]] == []
