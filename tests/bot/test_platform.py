"""Cross-cutting behaviour: duplicate updates, 429 retries, /lang, /start, /help, the command
menu, error texts for every code, and the console message without a token."""

from __future__ import annotations

import time

import pytest
from aiogram import Bot, Dispatcher
from aiogram.utils.i18n import I18n

from bot.app import build_dispatcher
from bot.commands import set_commands
from bot.i18n import translator
from bot.render.errors import dice_error_text, service_error_text
from bot.render.system import no_token_message
from bot.routers import dice as dice_router
from bot.settings import Settings
from engine.dice import ERROR_CODES, DiceError, ScriptedRng
from engine.services.errors import ERROR_CODES as SERVICE_ERROR_CODES
from engine.services.errors import ServiceError
from engine.store.models import RollLog
from tests.bot.conftest import ALICE, GROUP, VERA
from tests.support.fake_botapi import FakeBotAPI
from tests.support.telegram import TelegramDriver, private


async def test_duplicate_update_is_handled_once(tg: TelegramDriver, dp: Dispatcher) -> None:
    dp["rng"] = ScriptedRng([4, 4])
    update = tg.message_update(ALICE, GROUP, "/r 2d6")
    first = await tg.feed(update)
    assert len(first.sent()) == 1
    second = await tg.feed(update)  # the same update_id delivered again
    assert second.calls == []


async def test_a_copy_seen_by_another_worker_is_refused_by_the_stored_claim(
    tg: TelegramDriver, dp: Dispatcher, bot: Bot, api: FakeBotAPI, settings: Settings
) -> None:
    """Another dispatcher (a second worker, or the process after a restart) remembers
    nothing of the first: the claim stored with the roll refuses the copy."""
    dp["rng"] = ScriptedRng([4, 4])
    update = tg.message_update(ALICE, GROUP, "/r 2d6")
    assert len((await tg.feed(update)).sent()) == 1
    other = TelegramDriver(build_dispatcher(settings, rng=ScriptedRng([1, 1])), bot, api)
    again = await other.feed(update)
    assert again.sent() == []
    assert await RollLog.filter(chat_id=GROUP.id).count() == 1


async def test_an_update_cut_off_before_its_commit_is_handled_when_delivered_again(
    tg: TelegramDriver, dp: Dispatcher, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process dies while the roll's transaction runs: its claim goes down with it, so
    the copy Telegram delivers after the restart is handled, once."""
    dp["rng"] = ScriptedRng([4, 4])
    update = tg.message_update(ALICE, GROUP, "/r 2d6")

    async def dies(**kwargs: object) -> None:
        raise SystemExit("killed in the middle")

    monkeypatch.setattr(dice_router, "log_roll", dies)
    with pytest.raises(SystemExit):
        await tg.feed(update)
    monkeypatch.undo()
    restarted = TelegramDriver(build_dispatcher(settings, rng=ScriptedRng([3, 3])), tg.bot, tg.api)
    assert len((await restarted.feed(update)).sent()) == 1
    assert await RollLog.filter(chat_id=GROUP.id).count() == 1
    assert (await restarted.feed(update)).sent() == []  # and claimed with the roll now


async def test_flood_control_429_is_retried(tg: TelegramDriver, api: FakeBotAPI) -> None:
    api.fail_with_retry_after("sendMessage", retry_after=1)
    started = time.monotonic()
    feed = await tg.send(ALICE, GROUP, "/r 2d6")
    attempts = [c for c in feed.calls if c.method == "sendMessage"]
    assert len(attempts) == 2
    assert attempts[0].result is None and attempts[1].result is not None
    assert attempts[0].text == attempts[1].text
    assert time.monotonic() - started >= 1.0


async def test_lang_switches_replies_to_english_and_back(tg: TelegramDriver) -> None:
    answer = (await tg.send(ALICE, GROUP, "/lang en")).only_text()
    assert answer == "Done: I will answer you in English."
    [roll] = (await tg.send(ALICE, GROUP, "/r 2d6")).sent()
    assert roll.buttons()[0]["text"] == "🎲 Reroll"
    error = (await tg.send(ALICE, GROUP, "/r 1000000d1000000")).only_text()
    assert error == "Too many dice: at most 100 (in «<code>1000000d1000000</code>»)"
    # Other people keep the default language.
    assert "Перебросить" in str((await tg.send(VERA, GROUP, "/r d6")).sent()[0].buttons())

    assert "<code>/lang ru</code>" in (await tg.send(ALICE, GROUP, "/lang")).only_text()
    assert (await tg.send(ALICE, GROUP, "/lang ru")).only_text().startswith("Готово")
    assert "Слишком много кубиков" in (await tg.send(ALICE, GROUP, "/r 101d6")).only_text()


async def test_start_and_help(tg: TelegramDriver) -> None:
    welcome = (await tg.send(ALICE, private(ALICE), "/start")).only_text()
    assert welcome.startswith("Привет, <b>Алиса</b>! Я Кости")
    assert "/help" in (await tg.send(ALICE, GROUP, "/start")).only_text()
    [menu] = (await tg.send(ALICE, GROUP, "/help")).sent()
    sections = []
    for index in range(len(menu.buttons())):
        pressed = await tg.press(ALICE, menu, index)
        sections += [c.text for c in pressed.calls if c.method == "editMessageText"]
    help_text = "\n".join(sections)
    for example in ("/r 2к6+1 удар мечом", "/t d8+1", "/dmg 2к6+1 против 6", "/p 7 6", "/hr 2к6"):
        assert example in help_text


async def test_every_example_of_the_help_is_valid_notation(i18n: I18n) -> None:
    import re

    from bot.render.help import help_text
    from bot.rolling import make_roll
    from engine.dice import odds, system_rng

    with translator("ru", i18n):
        text = help_text()
    examples = re.findall(r"<code>/(r|t|dmg|p|odds) ([^<]+)</code>", text)
    assert len(examples) >= 9
    for command, args in examples:
        args = args.replace("&gt;", ">")
        if command == "odds":
            odds(args)
        else:
            make_roll(command, args, system_rng())


async def test_command_menu_in_russian_and_english(bot: Bot, api: FakeBotAPI, i18n: I18n) -> None:
    await set_commands(bot)
    calls = [c for c in api.calls if c.method == "setMyCommands"]
    by_language = {c.params.get("language_code"): c.params["commands"] for c in calls}
    assert set(by_language) == {None, "ru", "en"}
    ru = {c["command"]: c["description"] for c in by_language["ru"]}
    en = {c["command"]: c["description"] for c in by_language["en"]}
    assert ru["r"] == "Бросить кубики: /r 2к6+1"
    assert en["r"] == "Roll dice: /r 2d6+1"
    assert by_language[None] == by_language["ru"]
    assert {"r", "t", "dmg", "p", "hr", "odds", "newgame", "join", "game", "help"} <= set(ru)
    # /board is Savage Worlds' and the Storyteller's: listed once (issue 27)
    assert ru["board"] == "Живая доска внизу чата", ru["board"]
    assert len(by_language["ru"]) == len(ru) and len(by_language["en"]) == len(en)


def test_every_dice_error_code_has_a_russian_sentence(i18n: I18n) -> None:
    with translator("ru", i18n):
        fallback = dice_error_text(DiceError("empty")).split(" (")[0]
        seen = set()
        for code in ERROR_CODES:
            params = {"limit": 100, "what": "difficulty", "min": 2, "max": 10}
            text = dice_error_text(DiceError(code, fragment="2d6", params=params))
            sentence = text.removesuffix(" (в «<code>2d6</code>»)")
            assert sentence != text, code  # the fragment is pointed at
            assert any("а" <= ch <= "я" for ch in sentence.lower()), (code, sentence)
            assert "{" not in sentence, (code, sentence)
            assert sentence != "Не могу прочитать этот бросок.", code
            seen.add(sentence)
        assert fallback.startswith("Нечего бросать")
        assert len(seen) == len(ERROR_CODES)  # one sentence per code
        difficulty = {"what": "difficulty", "min": 2, "max": 10}
        text = dice_error_text(DiceError("out_of_range", fragment="11", params=difficulty))
        assert text == "Сложность: допустимо от 2 до 10 (в «<code>11</code>»)"


def test_every_service_error_code_has_a_russian_sentence(i18n: I18n) -> None:
    with translator("ru", i18n):
        generic = service_error_text(ServiceError("no_such_code"))
        assert generic.startswith("Что-то пошло не так")
        for code in SERVICE_ERROR_CODES:
            text = service_error_text(ServiceError(code, {"roll_id": 7, "name": "<X>", "max": 9}))
            assert text != generic, code
            assert any("а" <= ch <= "я" for ch in text.lower()), (code, text)
            assert "<X>" not in text  # user text is escaped


def test_no_token_message_is_plain_russian_text() -> None:
    text = no_token_message()
    assert "BOT_TOKEN" in text and "@BotFather" in text and ".env" in text
    settings = "DATABASE_URL BOT_API_URL WEBHOOK_URL WEBHOOK_SECRET HOST PORT PUBLIC_URL"
    for setting in (*settings.split(), "DEFAULT_LOCALE", "LOG_LEVEL"):
        assert setting in text
    assert "./scripts/test" in text
    assert "Кости" in text and "<b>" not in text and "&lt;" not in text
    assert no_token_message("en").startswith("Kosti is a Telegram bot")


async def test_real_polling_through_get_updates(
    tg: TelegramDriver, dp: Dispatcher, bot: Bot, api: FakeBotAPI
) -> None:
    """The runner's path: getUpdates on the (fake) Bot API, handlers answer over HTTP."""
    import asyncio

    update = tg.message_update(ALICE, GROUP, "/help")
    api.pending_updates.append(update)
    polling = asyncio.create_task(
        dp.start_polling(bot, handle_signals=False, close_bot_session=False)
    )
    try:
        for _ in range(100):
            if api.sent(chat_id=GROUP.id):
                break
            await asyncio.sleep(0.05)
    finally:
        await dp.stop_polling()
        await polling
    [reply] = api.sent(chat_id=GROUP.id)
    assert "Кости — кубики для настольных ролевых игр" in reply.text
    # The update was acknowledged (next offset) and handled once.
    offsets = [c.params.get("offset") for c in api.calls if c.method == "getUpdates"]
    assert update["update_id"] + 1 in offsets


def test_settings_error_message_names_the_bad_setting() -> None:
    from pydantic import ValidationError

    from bot.render.system import settings_error_message
    from bot.settings import Settings

    try:
        Settings(port="много", _env_file=None)  # type: ignore[arg-type, call-arg]
    except ValidationError as error:
        text = settings_error_message(error)
    else:  # pragma: no cover
        raise AssertionError("PORT=много must not validate")
    assert text.startswith("Некоторые настройки заданы неверно")
    assert "    PORT: " in text
