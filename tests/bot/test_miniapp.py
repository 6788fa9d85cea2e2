"""Opening the Mini App from the chat (/app, the game card, the boards, the menu button) and
the Mini App's rolls appearing in the chat (bot.miniapp_hooks), through the fake Bot API."""

from __future__ import annotations

import asyncio
import hashlib
import random
import re
import time
from typing import Any
from urllib.parse import parse_qs, urlsplit

from aiogram import Bot, Dispatcher
from aiogram.utils.i18n import I18n

from bot.app import build_dispatcher
from bot.commands import set_menu_button
from bot.miniapp import MiniApp
from bot.miniapp_hooks import ChatHooks
from bot.settings import Settings
from engine import savage
from engine.dice import ScriptedRng, roll
from engine.duel.roll import duel
from engine.receipt import short_code
from engine.services import (
    create_hidden_roll,
    find_game,
    log_roll,
    reveal_roll,
    select_private_game,
)
from engine.services.notify import Notifier, origin, using
from engine.services.savage import encounter_command
from engine.services.types import GameInfo, RollRecord
from tests.bot.conftest import ALICE, BORIS, GROUP, VERA
from tests.bot.systems.savage.test_combat import BOARD_TITLE, GRIMMJOW, HOLLOW
from tests.support.fake_botapi import BOT_TOKEN, BOT_USERNAME, ApiCall, FakeBotAPI
from tests.support.telegram import TelegramDriver, private
from webapp.app import create_app
from webapp.auth import sign_init_data
from webapp.links import StartTarget, link_secret, parse_token

PUBLIC_URL = "https://kosti.example"
DIRECT = f"https://t.me/{BOT_USERNAME}/app"
APP_LABEL = "📱 Открыть Mini App"
CODE = re.compile(r"Код квитанции: <code>([0-9a-f-]{14})</code>")


def target_of(url: str) -> StartTarget:
    """The game and screen of a direct link, checked with the web app's own parser."""
    parts = urlsplit(url)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == DIRECT
    [token] = parse_qs(parts.query)["startapp"]
    target = parse_token(link_secret(BOT_TOKEN), token)
    assert target is not None, f"not a valid token: {token}"
    return target


def app_button(call: ApiCall) -> dict[str, Any]:
    [button] = [b for b in call.buttons() if b["text"] == APP_LABEL]
    return button


async def make_game(tg: TelegramDriver) -> GameInfo:
    """Alice is the GM of the group's game, Boris a player; both started the bot."""
    await tg.send(ALICE, GROUP, "/newgame дикий Тени")
    await tg.send(BORIS, GROUP, "/join")
    await tg.send(ALICE, private(ALICE), "/start")
    await tg.send(BORIS, private(BORIS), "/start")
    game = await find_game(GROUP.id, None)
    assert game is not None
    return game


def driver_with(
    settings: Settings, tg: TelegramDriver, i18n: I18n, **changes: Any
) -> TelegramDriver:
    """The same fake Telegram, a dispatcher built with other settings."""
    dp = build_dispatcher(settings.model_copy(update=changes), rng=random.Random(5), i18n=i18n)
    driver = TelegramDriver(dp, tg.bot, tg.api)
    driver._update_ids = tg._update_ids  # fresh ids: the stored ones are de-duplicated
    return driver


# -- opening the app -------------------------------------------------------------------------
async def test_app_in_a_group_is_a_direct_link_for_the_game(tg: TelegramDriver) -> None:
    game = await make_game(tg)
    reply = (await tg.send(VERA, GROUP, "/app")).sent(GROUP.id)[0]
    assert "<b>Тени</b> в Mini App: броски кубиков" in reply.text
    button = app_button(reply)
    assert "web_app" not in button  # Telegram refuses web_app buttons in groups
    assert target_of(button["url"]) == StartTarget(
        game.id, "roll", target_of(button["url"]).game_token
    )

    for words, screen in (("бой", "initiative"), ("погоня", "chase"), ("броски", "rolls")):
        reply = (await tg.send(BORIS, GROUP, f"/app {words}")).sent(GROUP.id)[0]
        target = target_of(app_button(reply)["url"])
        assert (target.game_id, target.screen) == (game.id, screen)

    usage = (await tg.send(BORIS, GROUP, "/app куда-нибудь")).only_text()
    assert usage.startswith("Какой экран?") and "<code>/app бой</code>" in usage


async def test_app_in_a_group_without_a_game_opens_the_list(tg: TelegramDriver) -> None:
    reply = (await tg.send(VERA, GROUP, "/app")).sent(GROUP.id)[0]
    assert reply.text.startswith("В этом чате ещё нет игры")
    assert app_button(reply)["url"] == DIRECT  # no start_param: the app shows the user's games


async def test_game_card_has_the_button(tg: TelegramDriver) -> None:
    game = await make_game(tg)
    card = (await tg.send(VERA, GROUP, "/game")).sent(GROUP.id)[0]
    assert "Ведущий: <b>Алиса</b>" in card.text
    target = target_of(app_button(card)["url"])
    assert (target.game_id, target.screen) == (game.id, "game")


async def test_private_app_is_a_web_app_button_with_a_public_url(
    tg: TelegramDriver, settings: Settings, i18n: I18n
) -> None:
    game = await make_game(tg)
    with_url = driver_with(settings, tg, i18n, public_url=PUBLIC_URL + "/")
    reply = (await with_url.send(BORIS, private(BORIS), "/app")).sent(BORIS.id)[0]
    assert reply.text.startswith("📱 Mini App покажет ваши игры")
    assert app_button(reply) == {"text": APP_LABEL, "web_app": {"url": PUBLIC_URL + "/app/"}}

    # With a chosen game the page gets its token (Telegram's own tgWebAppStartParam name).
    await select_private_game(BORIS.id, game.id)
    reply = (await with_url.send(BORIS, private(BORIS), "/app погоня")).sent(BORIS.id)[0]
    assert "<b>Тени</b>" in reply.text
    url = app_button(reply)["web_app"]["url"]
    assert url.startswith(PUBLIC_URL + "/app/?tgWebAppStartParam=")
    [token] = parse_qs(urlsplit(url).query)["tgWebAppStartParam"]
    target = parse_token(link_secret(BOT_TOKEN), token)
    assert target is not None and (target.game_id, target.screen) == (game.id, "chase")

    # No PUBLIC_URL (or not HTTPS): the direct link, in private too.
    for driver in (tg, driver_with(settings, tg, i18n, public_url="http://kosti.example")):
        reply = (await driver.send(BORIS, private(BORIS), "/app")).sent(BORIS.id)[0]
        target = target_of(app_button(reply)["url"])
        assert (target.game_id, target.screen) == (game.id, "roll")


async def test_boards_keep_their_buttons_and_get_the_app_button(tg: TelegramDriver) -> None:
    game = await make_game(tg)
    await tg.send(ALICE, GROUP, "/fight")
    [board] = [
        c for c in tg.api.calls if c.method == "sendMessage" and c.text.startswith(BOARD_TITLE)
    ]
    labels = [b["text"] for b in board.buttons()]
    assert labels[0] == "▶️ Раздать" and labels[-1] == APP_LABEL
    target = target_of(board.buttons()[-1]["url"])
    assert (target.game_id, target.screen) == (game.id, "initiative")

    tg.dp["rng"] = random.Random(7)
    await tg.send(ALICE, GROUP, "/chase")
    row = [c for c in tg.api.calls if c.method == "sendMessage" and c.text.startswith("🏃")][-1]
    labels = [b["text"] for b in row.buttons()]
    assert labels[-2:] == ["↩️ Отменить", APP_LABEL]
    target = target_of(row.buttons()[-1]["url"])
    assert (target.game_id, target.screen) == (game.id, "chase")


async def test_menu_button_opens_the_app_when_there_is_a_public_url(
    bot: Bot, api: FakeBotAPI, i18n: I18n
) -> None:
    assert await set_menu_button(bot, MiniApp("app", PUBLIC_URL))
    assert await set_menu_button(bot, MiniApp("app", None)) is False
    first, second = [c for c in api.calls if c.method == "setChatMenuButton"]
    assert first.params["menu_button"] == {
        "type": "web_app",
        "text": "Кости",
        "web_app": {"url": PUBLIC_URL + "/app/"},
    }
    assert "chat_id" not in first.params  # the default for every private chat
    assert second.params["menu_button"] == {"type": "default"}


async def test_help_explains_the_mini_app(tg: TelegramDriver) -> None:
    [menu] = (await tg.send(VERA, GROUP, "/help")).sent()
    index = [b["text"] for b in menu.buttons()].index("📱 Mini App")
    pressed = await tg.press(VERA, menu, index)
    [edit] = [c for c in pressed.calls if c.method == "editMessageText"]
    assert "<b>Mini App</b>" in edit.text and "/app" in edit.text
    # the BotFather set-up is the admin's business: the README tells it
    assert "@BotFather" not in edit.text


# -- /d --------------------------------------------------------------------------------------
async def test_duel_check_command(tg: TelegramDriver, dp: Dispatcher) -> None:
    dp["rng"] = ScriptedRng([10])
    reply = (await tg.send(BORIS, GROUP, "/d +2 выпад")).sent(GROUP.id)[0]
    assert reply.text.startswith("🎲 <b>Борис &lt;b&gt;</b>: проверка дуэли <code>d10+2</code>")
    assert "d10 [10] +2 = <b>12</b>" in reply.text and "<b>критический успех</b>" in reply.text

    dp["rng"] = ScriptedRng([1])  # «Перебросить» rolls the duel check again
    again = (await tg.press(BORIS, reply)).sent(GROUP.id)[0]
    assert "d10 [1] +2 = <b>3</b>" in again.text and "<b>критический провал</b>" in again.text

    dp["rng"] = ScriptedRng([5])
    trick = (await tg.send(BORIS, GROUP, "/d +1 трюк")).only_text()
    assert "d10 [5] +1 = <b>6</b>" in trick and "<b>цель 6: успех</b>" in trick

    usage = (await tg.send(BORIS, GROUP, "/d")).only_text()
    assert "<code>/d +2</code>" in usage


# -- rolls from the Mini App in the chat -----------------------------------------------------
def hooks_of(bot: Bot, i18n: I18n) -> ChatHooks:
    return ChatHooks(bot, i18n)


async def told(bot: Bot, i18n: I18n, hook: str, record: RollRecord) -> None:
    """A hook called as the web app does without a journaling bot: it goes on in the
    background, awaited here."""
    hooks = hooks_of(bot, i18n)
    async with hooks.chat_step():
        await getattr(hooks, hook)(record)
    await hooks.wait_idle()


def _roll_fields(game: GameInfo, user_id: int, text: str, faces: list[int]) -> dict[str, Any]:
    return {
        "user_id": user_id,
        "game_id": game.id,
        "chat_id": game.chat_id,
        "topic_id": game.topic_id,
        "command": "r",
        "args": text,
        "result": roll(text, ScriptedRng(faces)).to_dict(),
    }


async def open_record(game: GameInfo, user_id: int, text: str, faces: list[int]) -> RollRecord:
    return await log_roll(**_roll_fields(game, user_id, text, faces))


async def hidden_record(game: GameInfo, user_id: int, text: str, faces: list[int]) -> RollRecord:
    return await create_hidden_roll(**_roll_fields(game, user_id, text, faces))


async def test_open_roll_from_the_app_is_posted_in_the_chat(
    tg: TelegramDriver, bot: Bot, i18n: I18n
) -> None:
    game = await make_game(tg)
    record = await open_record(game, BORIS.id, "2d6+1 скрытность", [4, 2])
    mark = tg.api.mark()
    await told(bot, i18n, "on_roll", record)
    [posted] = tg.api.sent(mark)
    assert posted.chat_id == GROUP.id
    assert posted.text.startswith("🎲 <b>Борис &lt;b&gt;</b> (из Mini App): <code>2d6+1</code>")
    assert "2d6 [4, 2] + 1 = <b>7</b>" in posted.text
    assert posted.buttons()[0]["text"] == "🎲 Перебросить"

    # A duel check from the app renders like /d (and its reroll works in the chat).
    duel_record = await log_roll(
        user_id=BORIS.id,
        game_id=game.id,
        chat_id=game.chat_id,
        topic_id=None,
        command="duel",
        args="+2",
        result=duel("+2", ScriptedRng([7])).to_dict(),
    )
    mark = tg.api.mark()
    await told(bot, i18n, "on_roll", duel_record)
    [posted] = tg.api.sent(mark)
    assert "проверка дуэли <code>d10+2</code>" in posted.text and "= <b>9</b>" in posted.text
    tg.dp["rng"] = ScriptedRng([3])
    assert "d10 [3] +2 = <b>5</b>" in (await tg.press(BORIS, posted)).only_text()


async def test_open_roll_goes_to_the_games_topic(tg: TelegramDriver, bot: Bot, i18n: I18n) -> None:
    await tg.send(ALICE, GROUP, "/newgame сказитель Тема", thread_id=77)
    game = await find_game(GROUP.id, 77)
    assert game is not None
    mark = tg.api.mark()
    await told(bot, i18n, "on_roll", await open_record(game, ALICE.id, "d6", [3]))
    [posted] = tg.api.sent(mark)
    assert posted.params["message_thread_id"] == 77


async def test_hidden_roll_from_the_app_goes_the_hr_way(
    tg: TelegramDriver, bot: Bot, i18n: I18n
) -> None:
    game = await make_game(tg)
    record = await hidden_record(game, BORIS.id, "2d6+1", [5, 1])
    mark = tg.api.mark()
    await told(bot, i18n, "on_roll", record)
    sent = tg.api.sent(mark)
    assert {c.chat_id for c in sent} == {BORIS.id, ALICE.id, GROUP.id}
    [roller] = [c for c in sent if c.chat_id == BORIS.id]
    [gm] = [c for c in sent if c.chat_id == ALICE.id]
    [receipt] = [c for c in sent if c.chat_id == GROUP.id]
    for copy in (roller, gm):
        assert "2d6 [5, 1] + 1 = <b>7</b>" in copy.text
    assert gm.buttons()[0]["text"] == "🔓 Раскрыть" and roller.buttons() == []
    assert receipt.text.startswith(f"🔒 Скрытый бросок №{record.id}: <b>Борис &lt;b&gt;</b>, ")
    assert "📱 Сделан в Mini App." in receipt.text
    assert "[5, 1]" not in receipt.text and "<b>7</b>" not in receipt.text
    assert CODE.search(receipt.text).group(1) == short_code(record.receipt or "")

    # The GM reveals it in the app: the group gets the reveal, and the receipt checks out.
    revealed = await reveal_roll(record.id, actor_id=ALICE.id)
    mark = tg.api.mark()
    await told(bot, i18n, "on_reveal", revealed)
    [posted] = tg.api.sent(mark)
    assert posted.chat_id == GROUP.id
    assert posted.text.startswith(f"🔓 Скрытый бросок №{record.id}: <b>Борис &lt;b&gt;</b>, ")
    assert "2d6 [5, 1] + 1 = <b>7</b>" in posted.text
    [document] = tg.api.since(mark, "sendDocument")
    content = document.params["document"]["content"]
    assert hashlib.sha256(content).hexdigest() == record.receipt


async def test_hidden_roll_from_the_app_waits_for_a_roller_who_never_started_the_bot(
    tg: TelegramDriver, bot: Bot, i18n: I18n
) -> None:
    await tg.send(ALICE, GROUP, "/newgame дикий Тени")
    await tg.send(VERA, GROUP, "/join")
    await tg.send(ALICE, private(ALICE), "/start")
    game = await find_game(GROUP.id, None)
    assert game is not None
    tg.api.forbid(VERA.id)
    record = await hidden_record(game, VERA.id, "d20", [17])
    mark = tg.api.mark()
    await told(bot, i18n, "on_roll", record)
    sent = tg.api.sent(mark)
    assert {c.chat_id for c in sent} == {ALICE.id, GROUP.id}  # the DM to Vera was refused
    [notice] = [c for c in sent if c.chat_id == GROUP.id]
    assert "<b>Вера</b>, я не могу написать вам в личку" in notice.text
    [button] = notice.buttons()
    assert button["url"] == f"https://t.me/{BOT_USERNAME}?start=hr"

    tg.api.allow(VERA.id)
    started = await tg.send(VERA, private(VERA), "/start hr")
    assert any("d20 [17] = <b>17</b>" in c.text for c in started.sent(VERA.id))


# -- the real web app with the hooks wired ---------------------------------------------------
async def wait_for_sent(api: FakeBotAPI, mark: int, count: int, timeout: float = 10.0) -> list:
    deadline = time.monotonic() + timeout
    while len(api.sent(mark)) < count:
        assert time.monotonic() < deadline, f"timed out: {[c.text for c in api.sent(mark)]}"
        await asyncio.sleep(0.02)
    return api.sent(mark)


async def test_a_roll_posted_to_the_web_app_arrives_in_the_chat(
    tg: TelegramDriver, bot: Bot, dp: Dispatcher, settings: Settings, aiohttp_client: Any
) -> None:
    await make_game(tg)
    reply = (await tg.send(BORIS, GROUP, "/app")).sent(GROUP.id)[0]
    token = target_of(app_button(reply)["url"]).game_token  # the link the group got

    hooks = ChatHooks.of(bot, dp)
    app = create_app(
        settings,
        on_roll=hooks.on_roll,
        on_reveal=hooks.on_reveal,
        rng=ScriptedRng([6, 2, 9]),
    )
    client = await aiohttp_client(app)

    def auth(user: Any) -> dict[str, str]:
        data = {"id": user.id, "first_name": user.first_name, "language_code": "ru"}
        return {"Authorization": "tma " + sign_init_data(BOT_TOKEN, data, int(time.time()))}

    mark = tg.api.mark()
    body = {"command": "roll", "args": "2d6 атака", "hidden": False}
    response = await client.post(f"/api/games/{token}/roll", json=body, headers=auth(BORIS))
    assert response.status == 200, await response.text()
    [posted] = await wait_for_sent(tg.api, mark, 1)
    assert posted.chat_id == GROUP.id
    assert "(из Mini App)" in posted.text and "2d6 [6, 2] = <b>8</b>" in posted.text

    # A hidden roll, then the GM's reveal, both through the API.
    mark = tg.api.mark()
    body = {"command": "duel", "args": "+1", "hidden": True}
    response = await client.post(f"/api/games/{token}/roll", json=body, headers=auth(BORIS))
    roll_id = (await response.json())["roll"]["id"]
    sent = await wait_for_sent(tg.api, mark, 3)
    assert {c.chat_id for c in sent} == {BORIS.id, ALICE.id, GROUP.id}
    [receipt] = [c for c in sent if c.chat_id == GROUP.id]
    assert "= <b>10</b>" not in receipt.text and "📱 Сделан в Mini App." in receipt.text

    mark = tg.api.mark()
    path = f"/api/games/{token}/rolls/{roll_id}/reveal"
    assert (await client.post(path, headers=auth(ALICE))).status == 200
    [revealed] = await wait_for_sent(tg.api, mark, 1)
    assert revealed.chat_id == GROUP.id and "d10 [9] +1 = <b>10</b>" in revealed.text


# -- fight steps made in the Mini App keep the chat in step ----------------------------------
async def test_a_fight_step_made_in_the_app_is_told_and_the_board_follows(
    tg: TelegramDriver, bot: Bot, dp: Dispatcher, settings: Settings
) -> None:
    game = await make_game(tg)
    await tg.send(ALICE, GROUP, "/fight")
    await tg.send(ALICE, GROUP, "/add " + GRIMMJOW)
    await tg.send(ALICE, GROUP, "/add " + HOLLOW)
    [board] = [
        c for c in tg.api.calls if c.method == "sendMessage" and c.text.startswith(BOARD_TITLE)
    ]
    hooks = ChatHooks.of(bot, dp, MiniApp.from_settings(settings))
    notifier = Notifier()  # the process's one, as bot/runner.py binds it
    notifier.subscribe(hooks.on_change)
    with using(notifier):
        mark = tg.api.mark()
        await encounter_command(
            game.id, savage.DealRound(), actor_id=ALICE.id, rng=random.Random(3)
        )
        await hooks.wait_idle()
        assert tg.api.since(mark) == []  # a chat-made change: the chat handlers tell it

        with origin("webapp"):
            await encounter_command(
                game.id, savage.DealRound(), actor_id=ALICE.id, rng=random.Random(4)
            )
        await hooks.wait_idle()
        [told] = tg.api.sent(mark, chat_id=GROUP.id)
        assert "Раунд 2" in told.text
        [edit] = tg.api.since(mark, "editMessageText")
        assert edit.params["message_id"] == board.result["message_id"]
        assert "раунд 2" in edit.text and app_button(edit)["url"].startswith(DIRECT)
