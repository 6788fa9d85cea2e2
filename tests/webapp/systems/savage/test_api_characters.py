"""The character editor's API: save (create, replace, rename), preview, read, delete; who may
read and write what; sheet errors with the engine's code; forged initData and big bodies."""

from __future__ import annotations

from typing import Any

import pytest

from engine.services import end_game
from engine.services.savage import list_characters, save_character
from engine.services.types import GameInfo
from tests.webapp.conftest import GM_ID, OTHER_ID, PLAYER_ID, STRANGER_ID, TOKEN, auth, make_game
from tests.webapp.systems.savage.fight import HOLLOWS, ICHIGO, RUKIA
from tests.webapp.test_api_auth import CASES
from webapp.links import startapp_token

BLOCK = (
    "Ичиго (Дикий) Ловкость d8, Смекалка d6, Дух d8, Сила d10, Выносливость d8;\n"
    "Драка d10, Атлетика d8, Стрельба d6; Стойкость 8 (2);\nЧерты: Хладнокровие, Быстрый"
)


@pytest.fixture
async def sw(db) -> GameInfo:  # type: ignore[no-untyped-def]
    return await make_game("savage", chat_id=-100555)


@pytest.fixture
def base(sw: GameInfo) -> str:
    return f"/api/games/{startapp_token(sw.id, bot_token=TOKEN)}/characters"


async def call(client, method, path, user_id, status=200, body=None):  # type: ignore[no-untyped-def]
    response = await client.request(method, path, json=body, headers=auth(user_id))
    data = await response.json()
    assert response.status == status, data
    return data


async def save(client, base, user_id, sheet, status=200, **extra):  # type: ignore[no-untyped-def]
    data = await call(client, "POST", base, user_id, status, {"sheet": sheet, **extra})
    return data["character"] if status == 200 else data["error"]


async def test_a_player_saves_reads_replaces_and_deletes_their_character(client, sw, base):
    saved = await save(client, base, PLAYER_ID, BLOCK)
    assert saved["name"] == "Ичиго" and saved["owner"] == PLAYER_ID and not saved["template"]
    assert (
        "игрок Аня" in saved["sheet"]
        and "1002" not in saved["sheet"]
        and saved["sheet"].startswith("Ичиго (Дикий")
    )
    parsed = saved["parsed"]
    assert parsed["parry"] == 7 and parsed["toughness"] == 8 and parsed["armor"] == 2
    assert parsed["pace"] == 6 and parsed["bennies"] == 3  # a player's Wild Card
    assert parsed["attributes"][0] == {"code": "agility", "name": "Ловкость", "die": "d8"}
    assert {"code": "fighting", "name": "Драка", "die": "d10"} in parsed["skills"]
    assert parsed["edges"] == ["Хладнокровие", "Быстрота"]  # as the chat names them
    assert saved["data"]["owner"] == PLAYER_ID and saved["data"]["name"] == "Ичиго"

    again = await save(client, base, PLAYER_ID, BLOCK.replace("Драка d10", "Драка d12"))
    assert again["id"] == saved["id"] and again["parsed"]["parry"] == 8
    read = (await call(client, "GET", f"{base}/{saved['id']}", PLAYER_ID))["character"]
    assert read["sheet"] == again["sheet"] and "Драка d12" in read["sheet"]
    # the structured JSON saves back to the same entry
    same = await save(client, base, PLAYER_ID, read["data"])
    assert same["id"] == saved["id"] and same["sheet"] == read["sheet"]

    deleted = await call(client, "DELETE", f"{base}/{saved['id']}", PLAYER_ID)
    assert deleted == {"ok": True, "deleted": saved["id"]}
    await call(client, "GET", f"{base}/{saved['id']}", PLAYER_ID, 404)
    assert await list_characters(sw.id) == []


async def test_the_gm_saves_templates_own_and_players_characters(client, sw, base):
    hollows = await save(client, base, GM_ID, HOLLOWS, template=True)
    assert hollows["template"] and hollows["owner"] is None and hollows["count"] == 3
    assert hollows["data"]["count"] == 3
    untagged = await save(client, base, GM_ID, RUKIA.replace("Рукия", "Меносы"))
    assert untagged["template"] and untagged["owner"] is None  # as /char in the chat
    mine = await save(client, base, GM_ID, RUKIA.replace("Рукия", "Айзен"), owner=GM_ID)
    assert mine["owner"] == GM_ID and not mine["template"]
    rukia = await save(client, base, GM_ID, RUKIA, owner=OTHER_ID)
    assert rukia["owner"] == OTHER_ID and "игрок Борис" in rukia["sheet"]
    tagged = await save(client, base, GM_ID, ICHIGO.replace("(Дикий)", "(Дикий, игрок 1002)"))
    assert tagged["owner"] == PLAYER_ID  # the block's own «игрок N»
    # explicit choices win over the tag
    forced = await save(client, base, GM_ID, tagged["sheet"], template=True)
    assert forced["id"] == tagged["id"] and forced["template"]
    error = await save(client, base, GM_ID, ICHIGO, 400, owner=STRANGER_ID)  # not a member
    assert error["code"] == "bad_request" and error["details"] == {"field": "owner"}
    await save(client, base, GM_ID, ICHIGO, 400, owner=PLAYER_ID, template=True)
    # the GM reads and deletes anything
    for record in (hollows, rukia):
        got = await call(client, "GET", f"{base}/{record['id']}", GM_ID)
        assert got["character"]["sheet"] == record["sheet"]
    await call(client, "DELETE", f"{base}/{rukia['id']}", GM_ID)
    names = [r.name for r in await list_characters(sw.id)]
    assert names == ["Айзен", "Ичиго", "Меносы", "Пустой"]


async def test_players_touch_only_their_own_entries(client, sw, base):
    template = await save_character(sw.id, HOLLOWS, actor_id=GM_ID)
    rukia = await save_character(sw.id, RUKIA, actor_id=OTHER_ID)
    mine = await save(client, base, PLAYER_ID, ICHIGO)
    # another's entry, the GM's template and no entry at all answer alike
    for entry in (rukia.id, template.id, 999_999):
        await call(client, "GET", f"{base}/{entry}", PLAYER_ID, 404)
        await call(client, "DELETE", f"{base}/{entry}", PLAYER_ID, 404)
    error = await save(client, base, PLAYER_ID, RUKIA, 403)  # replace Борис's by name
    assert error["code"] == "not_your_character"
    assert error["message"].startswith("Это не ваш персонаж")
    for extra in ({"template": True}, {"owner": OTHER_ID}):
        error = await save(client, base, PLAYER_ID, ICHIGO, 403, **extra)
        assert error["code"] == "forbidden"
    tagged = ICHIGO.replace("(Дикий)", "(Дикий, игрок 1003)")
    assert (await save(client, base, PLAYER_ID, tagged, 403))["code"] == "not_your_character"
    # renaming someone else's entry through "id"
    other = RUKIA.replace("Рукия", "Ренджи")
    await save(client, base, PLAYER_ID, other, 404, id=rukia.id)
    await call(client, "GET", f"{base}/{mine['id']}", OTHER_ID, 404)
    names = sorted(r.name for r in await list_characters(sw.id))
    assert names == ["Ичиго", "Пустой", "Рукия"]


async def test_what_a_player_may_not_read_answers_as_what_does_not_exist(client, sw, base):
    template = await save_character(sw.id, HOLLOWS, actor_id=GM_ID)
    rukia = await save_character(sw.id, RUKIA, actor_id=OTHER_ID)
    gone = await save_character(sw.id, ICHIGO, actor_id=GM_ID, owner_id=OTHER_ID)
    await call(client, "DELETE", f"{base}/{gone.id}", GM_ID)
    answers = []
    for method in ("GET", "DELETE"):
        for entry in (template.id, rukia.id, gone.id):
            response = await client.request(method, f"{base}/{entry}", headers=auth(PLAYER_ID))
            answers.append((response.status, await response.json()))
    assert answers[0][0] == 404 and answers[0][1]["error"]["code"] == "not_found"
    assert all(answer == answers[0] for answer in answers)
    assert len(await list_characters(sw.id)) == 2


async def test_a_template_name_answers_a_player_as_a_free_name(client, sw, base):
    template = await save_character(sw.id, HOLLOWS, actor_id=GM_ID)
    secret = HOLLOWS.split(" (")[0]
    taken = await save(client, base, PLAYER_ID, ICHIGO.replace("Ичиго", secret))
    free = await save(client, base, PLAYER_ID, ICHIGO.replace("Ичиго", "Свободное имя"))
    assert taken.keys() == free.keys()
    assert (taken["name"], taken["owner"], taken["template"]) == (secret, PLAYER_ID, False)
    assert taken["id"] != template.id
    # saved again, it replaces the player's own entry; the template is untouched
    again = await save(client, base, PLAYER_ID, ICHIGO.replace("Ичиго", secret.upper()))
    assert again["id"] == taken["id"]
    kept = (await call(client, "GET", f"{base}/{template.id}", GM_ID))["character"]
    assert kept["template"] and kept["sheet"] == template.sheet
    library = await call(client, "GET", base, GM_ID)
    assert sorted((c["name"], c["template"]) for c in library["characters"]) == [
        (secret.upper(), False),
        (secret, True),
        ("Свободное имя", False),
    ]
    mine = await call(client, "GET", base, PLAYER_ID)
    assert sorted(c["id"] for c in mine["characters"]) == sorted([taken["id"], free["id"]])


async def test_renaming_onto_a_template_name_is_no_conflict_for_a_player(client, sw, base):
    await save_character(sw.id, HOLLOWS, actor_id=GM_ID)
    secret = HOLLOWS.split(" (")[0]
    first = await save(client, base, PLAYER_ID, ICHIGO)
    renamed = await save(client, base, PLAYER_ID, ICHIGO.replace("Ичиго", secret), id=first["id"])
    assert renamed["name"] == secret and renamed["owner"] == PLAYER_ID
    # a name another player's character holds is known to the party: still a conflict
    await save_character(sw.id, RUKIA, actor_id=OTHER_ID)
    error = await save(client, base, PLAYER_ID, RUKIA, 409, id=renamed["id"])
    assert error["code"] == "conflict"
    names = sorted(r.name for r in await list_characters(sw.id))
    assert names == [secret, secret, "Рукия"]


async def test_a_spectator_may_not_read_check_or_write(client, sw, base):
    rukia = await save_character(sw.id, RUKIA, actor_id=OTHER_ID)
    for method, path, body in (
        ("POST", base, {"sheet": ICHIGO}),
        ("POST", base + "/preview", {"sheet": ICHIGO}),
        ("GET", f"{base}/{rukia.id}", None),
        ("DELETE", f"{base}/{rukia.id}", None),
    ):
        data = await call(client, method, path, STRANGER_ID, 403, body)
        assert data["error"]["code"] == "forbidden"
    assert len(await list_characters(sw.id)) == 1


async def test_rename_through_the_id(client, sw, base):
    first = await save(client, base, PLAYER_ID, ICHIGO)
    kurosaki = ICHIGO.replace("Ичиго", "Куросаки")
    renamed = await save(client, base, PLAYER_ID, kurosaki, id=first["id"])
    assert renamed["name"] == "Куросаки" and renamed["id"] != first["id"]
    assert [r.name for r in await list_characters(sw.id)] == ["Куросаки"]
    await save(client, base, PLAYER_ID, ICHIGO.replace("Ичиго", "Ренджи"))
    error = await save(
        client, base, PLAYER_ID, ICHIGO.replace("Ичиго", "Ренджи"), 409, id=renamed["id"]
    )
    assert error["code"] == "conflict" and error["details"] == {"name": "Ренджи"}
    await save(client, base, PLAYER_ID, ICHIGO, 404, id=999999)


async def test_names_are_normalised_and_look_alikes_refused(client, sw, base):
    """engine/services/names.py through the editor: an invisible character is not kept; a name
    that looks just like another is refused with its sentence (API code ``bad_name``); an
    entry renamed into the name it looked like is no conflict with itself."""
    saved = await save(client, base, PLAYER_ID, ICHIGO.replace("Ичиго", "Ичи\u200bго"))
    assert saved["name"] == "Ичиго" and saved["data"]["name"] == "Ичиго"
    assert saved["sheet"].startswith("Ичиго (Дикий")
    latin = ICHIGO.replace("Ичиго", "Ичигo")  # a Latin «o»
    error = await save(client, base, PLAYER_ID, latin, 400)
    assert error["code"] == "bad_name"
    assert error["message"].startswith("Имя «Ичигo» выглядит точно как «Ичиго»")
    assert error["details"]["description"]["code"] == "service.name_looks_alike"
    preview = await call(
        client, "POST", base + "/preview", PLAYER_ID, body={"sheet": "\u200b: Сила d6"}
    )
    assert preview["valid"] is False and preview["error"]["code"] == "bad_name"
    assert preview["error"]["message"] == "Имя пустое: в нём нет ни одного видимого символа."
    # an entry renamed into the name it looks like is no conflict with itself
    rukia = await save(client, base, OTHER_ID, RUKIA.replace("Рукия", "Pукия"))  # a Latin «P»
    fixed = await save(client, base, OTHER_ID, RUKIA, id=rukia["id"])
    assert fixed["name"] == "Рукия"
    assert sorted(r.name for r in await list_characters(sw.id)) == ["Ичиго", "Рукия"]


async def test_a_number_past_the_bound_is_refused(client, sw, base):
    saved = await save(client, base, PLAYER_ID, ICHIGO)
    error = await save(client, base, PLAYER_ID, {**saved["data"], "toughness": 10**18}, 400)
    assert error["code"] == "sheet_number_too_large"
    assert error["message"] == (
        "Слишком большое число: 1000000000000000000. Число в листе персонажа — не больше "
        "1000000 по модулю."
    )
    text = await save(client, base, PLAYER_ID, ICHIGO + "; Шаг 10000000", 400)
    assert text["code"] == "sheet_number_too_large" and text["details"]["line"] == 1
    assert (await list_characters(sw.id))[0].character.toughness == 8


async def test_preview_parses_without_saving(client, sw, base):
    data = await call(client, "POST", base + "/preview", PLAYER_ID, body={"sheet": BLOCK})
    assert data["valid"] is True and data["sheet"].startswith("Ичиго (Дикий, игрок Аня)")
    assert data["parsed"]["parry"] == 7 and data["parsed"]["bennies"] == 3
    data = await call(client, "POST", base + "/preview", GM_ID, body={"sheet": HOLLOWS})
    parsed = data["parsed"]  # the GM's own: an NPC's defaults, derived Parry and Toughness
    assert parsed["count"] == 3 and parsed["wild"] is False and parsed["bennies"] == 0
    assert parsed["parry"] == 5 and parsed["toughness"] == 7 and parsed["pace"] == 6
    plain = "Орихиме (Дикая) Выносливость d6; Драка d6"
    parsed = (await call(client, "POST", base + "/preview", GM_ID, body={"sheet": plain}))["parsed"]
    assert parsed["parry"] == 5 and parsed["toughness"] == 5 and parsed["bennies"] == 2
    response = await client.post(
        base + "/preview", json={"sheet": plain}, headers=auth(GM_ID, lang="en")
    )
    assert (await response.json())["parsed"]["skills"][0]["name"] == "Fighting"
    assert await list_characters(sw.id) == []


@pytest.mark.parametrize(
    ("sheet", "code", "fragment", "line"),
    [
        ("Ичиго (Дикий) Ловкость d8,\nСила d7", "sheet_bad_die", "Сила d7", 2),
        ("Ичиго: Ловкость d8; Рост 180", "sheet_unknown_part", "Рост 180", 1),
        ("Ичиго: Сила d8, Сила d6", "sheet_duplicate", "Сила d6", 1),
        ("   ", "sheet_empty", None, None),
        ("Пустой (×99) Сила d6", "bad_group_size", None, None),
        ('{"name": 5}', "sheet_bad_json", None, None),
        ("Я" * 300 + ": Сила d6", "bad_name", None, None),
    ],
)
async def test_a_bad_sheet_is_explained(client, sw, base, sheet, code, fragment, line):
    data = await call(client, "POST", base + "/preview", PLAYER_ID, body={"sheet": sheet})
    assert data["ok"] is True and data["valid"] is False
    error = data["error"]
    assert error["code"] == code and error["message"]
    if fragment is not None:
        assert error["details"]["fragment"] == fragment and error["details"]["line"] == line
    saved = await save(client, base, PLAYER_ID, sheet, 400)
    assert saved["code"] == code and saved["message"] == error["message"]
    assert await list_characters(sw.id) == []


async def test_bad_die_message_is_russian(client, sw, base):
    error = await save(client, base, PLAYER_ID, "Ичиго: Ловкость d7", 400)
    assert error["message"].startswith("Это не кубик черты")
    description = {
        "code": "rule.sheet_bad_die",
        "params": {"fragment": "Ловкость d7", "position": 7},
    }
    assert error["details"] == {
        "fragment": "Ловкость d7", "position": 7, "line": 1, "description": description
    }  # fmt: skip


async def test_malformed_and_oversized_requests_are_refused(client, sw, base):
    for body in ({}, {"sheet": 5}, {"sheet": ICHIGO, "template": "yes"}, {"sheet": None}):
        data = await call(client, "POST", base, PLAYER_ID, 400, body)
        assert data["error"]["code"] == "bad_request"
    response = await client.post(base, data=b"[1,", headers=auth(PLAYER_ID))
    assert response.status == 400
    huge = {"sheet": ICHIGO + " " * 20_000}
    for path in (base, base + "/preview"):
        data = await call(client, "POST", path, PLAYER_ID, 413, huge)
        assert data["error"]["code"] == "payload_too_large"
        long = {"sheet": ICHIGO + "\n" * 5000}  # under the body limit, over the sheet's
        assert (await call(client, "POST", path, PLAYER_ID, 413, long))["ok"] is False
    await call(client, "GET", f"{base}/abc", PLAYER_ID, 404)
    await call(client, "GET", f"{base}/{'9' * 40}", PLAYER_ID, 404)
    await save(client, base, PLAYER_ID, ICHIGO, 404, id=10**30)
    await call(client, "DELETE", f"{base}/12345", GM_ID, 404)
    assert await list_characters(sw.id) == []


async def test_ended_games_and_other_systems(client, sw, base):
    record = await save(client, base, PLAYER_ID, ICHIGO)
    await end_game(sw.id, actor_id=GM_ID)
    assert (await save(client, base, PLAYER_ID, ICHIGO, 409))["code"] == "game_ended"
    await call(client, "DELETE", f"{base}/{record['id']}", PLAYER_ID, 409)
    await call(client, "GET", f"{base}/{record['id']}", PLAYER_ID)  # still readable
    # another system's game reads a sheet with its own editor: a SWADE sheet is no duelist
    duel = await make_game("duel", chat_id=-100999)
    other = f"/api/games/{startapp_token(duel.id, bot_token=TOKEN)}/characters"
    data = await call(client, "POST", other + "/preview", GM_ID, 200, {"sheet": ICHIGO})
    assert data["valid"] is False
    assert data["error"]["details"]["description"]["code"].startswith("duel_rule.")


def routes(base: str) -> list[tuple[str, str, dict[str, Any] | None]]:
    return [
        ("GET", base + "/1", None),
        ("POST", base, {"sheet": ICHIGO}),
        ("POST", base + "/preview", {"sheet": ICHIGO}),
        ("DELETE", base + "/1", None),
    ]


async def test_every_new_route_refuses_forged_init_data(client, sw, base):
    record = await save_character(sw.id, ICHIGO, actor_id=PLAYER_ID)
    checked = 0
    for method, path, body in routes(base):
        for case, header, code in CASES:
            headers = {} if header is None else {"Authorization": header}
            response = await client.request(method, path, json=body, headers=headers)
            data = await response.json()
            assert response.status == 401, (case, path, data)
            assert data["error"]["code"] == code, (case, path, data)
            checked += 1
    assert checked == 4 * len(CASES)
    assert [r.id for r in await list_characters(sw.id)] == [record.id]
