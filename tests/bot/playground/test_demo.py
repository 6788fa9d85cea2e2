"""The demo tables: every installed system's demo laid out through the real dispatcher, each
in a chat of its own (the main group, a group of its own, a forum topic), each once, from the
page's buttons or all at once (`python -m bot --demo`). The systems' own tests check what
each demo leaves (tests/bot/systems/*/test_demo.py)."""

from __future__ import annotations

from typing import Any

import aiohttp

from bot.playground.demo import lay_out, with_demo
from bot.playground.world import FORUM_ID, GROUP_ID
from engine.services import find_game
from tests.bot.playground.conftest import Served


async def post(served: Served, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    async with (
        aiohttp.ClientSession() as http,
        http.post(served.url + "playground/api/demo", json=body) as response,
    ):
        return response.status, await response.json()


async def test_every_demo_has_a_chat_of_its_own(served: Served):
    systems = with_demo()
    assert len(systems) >= 3
    first = await lay_out(served.play)  # as --demo does
    places = {}
    for system in systems:
        chat, thread = await lay_out(served.play, system.code)  # laid out already: the place
        places[system.code] = (chat.id, thread)
        game = await find_game(chat.id, thread)
        assert game is not None and game.system == system.code, system.code
        assert system.demo is not None
        assert (chat.id == GROUP_ID) == (system.demo.chat is None)
        assert (chat.id == FORUM_ID) == system.demo.forum
    assert len(set(places.values())) == len(systems)
    assert first == (served.chat(places[systems[0].code][0]), places[systems[0].code][1])
    assert served.failures() == []
    assert served.alerts() == []
    # the page was told of the chats made for the demos
    told = {e["chat"]["id"] for e in served.events if e["type"] == "chat"}
    assert {chat for chat, _ in places.values() if chat != GROUP_ID} <= told


async def test_each_demo_button_lays_its_table_out_once(served: Served):
    for system in with_demo():
        fed = served.play.fed
        for n in range(2):
            status, answer = await post(served, {"user": 10001, "system": system.code})
            assert status == 200 and answer["ok"], answer
            if n == 0:
                laid = served.play.fed - fed
                assert laid > 0  # its commands went to the dispatcher
        assert served.play.fed == fed + laid  # the second press fed nothing
        chat = served.chat(answer["chat"])
        thread = answer["thread"]
        assert answer["title"] == (chat.title if thread is None else chat.topics[thread])
        assert await find_game(chat.id, thread) is not None


async def test_an_unknown_demo_is_refused(served: Served):
    status, answer = await post(served, {"system": "chess"})
    assert status == 400 and not answer["ok"]
    assert served.play.fed == 0


async def test_the_page_lists_every_demo_with_its_line(served: Served):
    async with (
        aiohttp.ClientSession() as http,
        http.get(served.url + "playground/api/state?lang=ru") as response,
    ):
        state = await response.json()
    codes = [d["system"] for d in state["demos"]]
    assert codes == [s.code for s in with_demo()]
    for demo in state["demos"]:
        assert demo["title"] and len(demo["hint"]) > 40
        assert any("а" <= ch <= "я" for ch in demo["hint"])  # in Russian
    assert state["texts"]["demo"] == "Демо-столы"
