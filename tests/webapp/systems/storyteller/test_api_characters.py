"""The Storyteller character editor's routes: the example sheet saved as is, its JSON, a
sheet checked without saving, templates the GM's, another's sheet answering as none."""

from __future__ import annotations

from engine.storyteller.sheet import EXAMPLE
from tests.webapp.conftest import GM_ID, OTHER_ID, PLAYER_ID, auth

GHOUL = "Имя: Гуль\nАтрибуты: Сила 3\nСила воли: 3\nНеведомое: строка"


async def test_save_check_list_and_delete(client, gtoken):  # type: ignore[no-untyped-def]
    base = f"/api/games/{gtoken}/characters"
    saved = await client.post(base, json={"sheet": EXAMPLE}, headers=auth(PLAYER_ID))
    assert saved.status == 200, await saved.text()
    mine = (await saved.json())["character"]
    assert mine["name"] == "Вероника Штерн" and mine["owner"] == PLAYER_ID
    assert mine["sheet"].startswith("Имя: Вероника Штерн") and mine["warnings"] == []
    assert mine["data"]["abilities"]["firearms"] == 3
    # the GM's template, with a line the sheet does not know: a warning naming it
    template = await client.post(base, json={"sheet": GHOUL, "template": True}, headers=auth(GM_ID))
    ghoul = (await template.json())["character"]
    assert ghoul["template"] and ghoul["warnings"] == ["Эта строка не прочитана: Неведомое: строка"]
    refused = await client.post(
        base, json={"sheet": GHOUL, "template": True}, headers=auth(PLAYER_ID)
    )
    assert refused.status == 403
    # the lists: the GM all, a player their own
    gm = [
        c["name"]
        for c in (await (await client.get(base, headers=auth(GM_ID))).json())["characters"]
    ]
    assert sorted(gm) == ["Вероника Штерн", "Гуль"]
    other = await (await client.get(base, headers=auth(OTHER_ID))).json()
    assert other["characters"] == []
    # another's sheet and a template answer as none
    for cid in (mine["id"], ghoul["id"]):
        assert (await client.get(f"{base}/{cid}", headers=auth(OTHER_ID))).status == 404
    assert (await client.get(f"{base}/{mine['id']}", headers=auth(GM_ID))).status == 200
    # a check without saving
    bad = await client.post(
        f"{base}/preview", json={"sheet": "Сила воли: 3"}, headers=auth(PLAYER_ID)
    )
    answer = await bad.json()
    assert answer["valid"] is False and answer["error"]["message"].startswith("Текст персонажа")
    good = await client.post(f"{base}/preview", json={"sheet": EXAMPLE}, headers=auth(PLAYER_ID))
    assert (await good.json())["valid"] is True
    gone = await client.delete(f"{base}/{mine['id']}", headers=auth(PLAYER_ID))
    assert gone.status == 200
    assert (await client.get(f"{base}/{mine['id']}", headers=auth(GM_ID))).status == 404
