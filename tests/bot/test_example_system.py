"""A fourth system in the chat, from the test tree (tests/support/coins): registered through
one line per layer only, its /coin is a chat command, its result reads as it says, /odds
finds its word; its contest, served by the one scene service, is played in the chat and in
the Mini App's API; and the shared modules are untouched (tests/test_shared_layers.py)."""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

import pytest
from aiogram import Bot, Dispatcher

from bot.miniapp_hooks import ChatHooks
from bot.settings import Settings
from bot.systems import registry
from engine.dice import ScriptedRng, odds, result_from_dict
from engine.dice.commands import BY_CODE, make_roll
from engine.dice.results import RESULTS
from engine.services import find_game, systems
from engine.services.notify import Notifier, using
from tests.bot.conftest import ALICE, GROUP, VERA
from tests.support import coins

# pytest takes fixtures from the module: the example system installed, its dispatcher
from tests.support.coins.fixtures import coins_dispatcher, coins_installed  # noqa: F401
from tests.support.fake_botapi import BOT_TOKEN, ApiCall
from tests.support.telegram import TelegramDriver, TgUser
from webapp.app import create_app
from webapp.auth import sign_init_data
from webapp.links import startapp_token


def test_its_roll_is_a_roll_command_with_a_result_the_log_keeps(installed: None) -> None:
    result = make_roll("coin", "3 на удачу", ScriptedRng([2, 1, 2]))
    assert (result.kind, result.heads, result.comment) == ("coin", 2, "на удачу")
    assert result_from_dict(result.to_dict()) == result
    found = odds("монета 3")
    assert found.system == "coins" and found.probability("none") == Fraction(1, 8)
    assert [t.probability for t in found.thresholds] == [
        Fraction(7, 8),
        Fraction(1, 2),
        Fraction(1, 8),
    ]


def test_it_is_registered_once_and_taken_out_after() -> None:
    with coins.installed():
        assert BY_CODE["coin"].chat == ("coin",) and "coins" in systems.codes()
        with pytest.raises(ValueError):
            systems.register(coins.services.COINS)
    assert "coin" not in BY_CODE and "coin" not in RESULTS.classes
    assert "coins" not in systems.codes() and registry.get("coins") is None


async def test_it_is_rolled_told_and_its_odds_given_in_the_chat(
    tg: TelegramDriver, dp: Dispatcher
) -> None:
    dp["rng"] = ScriptedRng([2, 2, 1])
    [reply] = (await tg.send(ALICE, GROUP, "/coin 3 на удачу")).sent(GROUP.id)
    assert reply.text == "🎲 <b>Алиса</b>: 🪙 3 coins — <i>на удачу</i>\n[2, 2, 1] → <b>2</b>"
    usage = (await tg.send(ALICE, GROUP, "/coin")).only_text()
    assert "<code>/coin 3</code>" in usage
    text = (await tg.send(ALICE, GROUP, "/odds монета 2")).only_text()
    assert "no heads: <b>25,0%</b> (1/4)" in text and "≥2 heads: <b>25,0%</b>" in text


async def test_its_contest_is_played_in_the_chat_and_in_the_mini_app(
    tg: TelegramDriver, bot: Bot, dp: Dispatcher, settings: Settings, aiohttp_client: Any
) -> None:
    """The contest, a scene of the one scene service: the GM starts it, a player taps the
    board's button, the GM tosses by /toss and takes it back; then in the Mini App's API a
    toss (told on the chat's board), a player's undo refused, the GM's undo and the end."""

    async def board_after(user: TgUser, text: str) -> ApiCall:
        feed = await tg.send(user, GROUP, text)
        [edit] = [c for c in feed.calls if c.method == "editMessageText"]
        return edit

    await tg.send(ALICE, GROUP, "/newgame монетки Турнир")
    await tg.send(VERA, GROUP, "/join")
    refused = (await tg.send(ALICE, GROUP, "/toss")).only_text()
    assert refused == "Такого в этой игре сейчас не идёт."  # the shared `no_scene`
    [board] = (await tg.send(ALICE, GROUP, "/contest")).sent(GROUP.id)
    assert "Бросков ещё не было." in board.text
    dp["rng"] = ScriptedRng([2])
    feed = await tg.press(VERA, board)
    [edit] = [c for c in feed.calls if c.method == "editMessageText"]
    assert edit.params["message_id"] == board.result["message_id"]
    assert "Вера: орлов 1 из 1\nПоследний бросок: орёл" in edit.text
    assert [b["text"] for b in edit.buttons()] == ["🪙 Бросить монету"]
    dp["rng"] = ScriptedRng([1])
    edit = await board_after(ALICE, "/toss")
    assert "Вера: орлов 1 из 1\nАлиса: орлов 0 из 1\nПоследний бросок: решка" in edit.text
    assert (await tg.send(VERA, GROUP, "/undo")).only_text() == "Это может только ведущий игры."
    edit = await board_after(ALICE, "/undo")
    assert "Алиса" not in edit.text and "Последний бросок: орёл" in edit.text

    game = await find_game(GROUP.id, None)
    assert game is not None
    hooks = ChatHooks.of(bot, dp)
    notifier = Notifier()
    notifier.subscribe(hooks.on_change)
    client = await aiohttp_client(create_app(settings, notifier=notifier, rng=ScriptedRng([2])))
    path = f"/api/games/{startapp_token(game.id, bot_token=BOT_TOKEN)}/coin_toss"

    async def app(user: TgUser, command: str, status: int = 200) -> dict[str, Any]:
        data = {"id": user.id, "first_name": user.first_name, "language_code": "ru"}
        auth = {"Authorization": "tma " + sign_init_data(BOT_TOKEN, data, int(time.time()))}
        response = await client.post(path, json={"command": command}, headers=auth)
        assert response.status == status, await response.text()
        await hooks.wait_idle()
        answer: dict[str, Any] = await response.json()
        return answer

    with using(notifier):
        mark = tg.api.mark()
        seen = (await app(VERA, "toss"))["coin_toss"]
        assert seen["scores"] == [{"by": VERA.id, "heads": 2}] and seen["seq"] == 4
        [edit] = tg.api.since(mark, "editMessageText")  # the chat's board, brought up to date
        assert edit.params["message_id"] == board.result["message_id"]
        assert "Вера: орлов 2 из 2" in edit.text
        assert (await app(VERA, "undo", 403))["error"]["code"] == "forbidden"
        after = (await app(ALICE, "undo"))["coin_toss"]
        assert after["scores"] == [{"by": VERA.id, "heads": 1}]
        assert (await app(ALICE, "end"))["coin_toss"] is None
        assert (await app(ALICE, "toss", 409))["error"]["code"] == "no_scene"
    # a new contest is a new board; ended in the chat, it keeps its scores and loses its button
    [second] = (await tg.send(ALICE, GROUP, "/contest")).sent(GROUP.id)
    assert second.result["message_id"] != board.result["message_id"]
    edit = await board_after(ALICE, "/endcontest")
    assert edit.params["message_id"] == second.result["message_id"]
    assert "— окончено" in edit.text and edit.buttons() == []
