"""Open rolls end to end: /r, /t, /dmg, /p, /odds, errors and the «Перебросить» button."""

from __future__ import annotations

import html
import random
import re

import pytest
from aiogram import Dispatcher
from aiogram.utils.i18n import I18n

from bot.i18n import translator
from bot.render.dice import render_result, usage
from engine.dice import ScriptedRng
from engine.dice.commands import BY_CHAT, make_roll
from engine.duel.roll import duel
from tests.bot.conftest import ALICE, BORIS, GROUP
from tests.support.fake_botapi import BOT_USERNAME, FakeBotAPI
from tests.support.telegram import TelegramDriver


def script(dp: Dispatcher, *faces: int) -> ScriptedRng:
    """The next dice the bot rolls are exactly `faces`."""
    rng = ScriptedRng(faces)
    dp["rng"] = rng
    return rng


async def test_roll_in_a_group_replies_in_russian_with_dice_and_total(
    tg: TelegramDriver, dp: Dispatcher
) -> None:
    rng = script(dp, 3, 5)
    feed = await tg.send(ALICE, GROUP, "/r 2к6+1 удар мечом")

    [reply] = feed.sent(GROUP.id)
    assert reply.text == (
        "🎲 <b>Алиса</b>: <code>2d6+1</code> — <i>удар мечом</i>\n2d6 [3, 5] + 1 = <b>9</b>"
    )
    assert reply.params["reply_parameters"]["message_id"] == feed.message["message_id"]
    assert reply.params["parse_mode"] == "HTML"
    [button] = reply.buttons()
    assert button["text"] == "🎲 Перебросить"
    assert rng.remaining == 0


async def test_roll_alias_and_bot_mention(tg: TelegramDriver, dp: Dispatcher) -> None:
    script(dp, 17)
    text = (await tg.send(ALICE, GROUP, f"/roll@{BOT_USERNAME} d20")).only_text()
    assert "d20 [17] = <b>17</b>" in text
    # A command addressed to another bot is not ours.
    assert (await tg.send(ALICE, GROUP, "/r@other_bot d20")).calls == []


async def test_dice_marks_aces_and_dropped_dice(tg: TelegramDriver, dp: Dispatcher) -> None:
    script(dp, 6, 2, 4, 1, 5)
    text = (await tg.send(ALICE, GROUP, "/r 4d6kh3")).only_text()
    assert "4d6kh3 [6, 2, 4, <s>1</s>]" in text
    assert "= <b>12</b>" in text

    script(dp, 6, 6, 2)
    text = (await tg.send(ALICE, GROUP, "/r d6!")).only_text()
    assert "[6💥, 6💥, 2]" in text
    assert "= <b>14</b>" in text

    script(dp, 1, 4, 5)
    text = (await tg.send(ALICE, GROUP, "/r 2d6r1")).only_text()
    assert "2d6r1 [<s>1</s>, 4, 5] = <b>9</b>" in text


async def test_success_counting_and_botch(tg: TelegramDriver, dp: Dispatcher) -> None:
    script(dp, 7, 6, 1, 3)
    text = (await tg.send(ALICE, GROUP, "/r 4d10>=6f1")).only_text()
    assert "успехов: <b>1</b>" in text

    script(dp, 1, 3, 2, 4)
    text = (await tg.send(ALICE, GROUP, "/r 4d10>=6f1")).only_text()
    assert "<b>Провал</b>" in text


async def test_trait_roll_shows_both_dice_and_the_outcome(
    tg: TelegramDriver, dp: Dispatcher
) -> None:
    script(dp, 5, 3)
    text = (await tg.send(ALICE, GROUP, "/t d8+1")).only_text()
    assert "Кость черты d8! [5] = 5 ✓" in text
    assert "Дикий кубик d6! [3] = 3" in text
    assert "Модификаторы: +1" in text
    assert "Итог <b>6</b> против сложности 4: <b>успех</b>" in text

    # An aced trait die: 8 + 4 = 12, +1 = 13 against 4 -> two raises.
    script(dp, 8, 4, 2)
    text = (await tg.send(ALICE, GROUP, "/t d8+1")).only_text()
    assert "[8💥, 4] = 12 ✓" in text
    assert "<b>подъём ×2</b>" in text

    script(dp, 1, 1)
    text = (await tg.send(ALICE, GROUP, "/t d6")).only_text()
    assert "<b>критический провал</b>" in text


async def test_damage_against_toughness(tg: TelegramDriver, dp: Dispatcher) -> None:
    script(dp, 4, 6, 3)
    text = (await tg.send(ALICE, GROUP, "/dmg 2d6+1 vs 6")).only_text()
    assert "2d6! [4, 6💥, 3] + 1 = <b>14</b>" in text
    assert "против Стойкости 6: <b>2 Раны + Шок</b>" in text

    script(dp, 3, 4)
    text = (await tg.send(ALICE, GROUP, "/dmg 2к6 против 6")).only_text()
    assert "против Стойкости 6: <b>Шок</b>" in text

    script(dp, 1, 2)
    text = (await tg.send(ALICE, GROUP, "/dmg 2d6 vs 6")).only_text()
    assert "<b>без эффекта</b>" in text


async def test_storyteller_pool_successes_and_botch(tg: TelegramDriver, dp: Dispatcher) -> None:
    script(dp, 10, 8, 6, 4, 3, 1, 2)
    text = (await tg.send(ALICE, GROUP, "/p 7 6")).only_text()
    assert "пул 7 кубиков, сложность 6" in text
    assert "[<b>10</b>, <b>8</b>, <b>6</b>, 4, 3, 1, 2]" in text
    assert "3 успеха, 1 единица вычитает → успехов: <b>2</b>" in text

    script(dp, 1, 2, 3, 4, 5, 1, 2)
    text = (await tg.send(ALICE, GROUP, "/p 7 6")).only_text()
    assert "<b>Провал</b>" in text

    # Seed 002: «Неудача не меняет ничего, а провал означает, что подготовленный материал не
    # годится»: no net success is «неудача», «провал» is kept for the botch.
    script(dp, 10, 1, 4)
    text = (await tg.send(ALICE, GROUP, "/p 3 6")).only_text()
    assert "→ <b>неудача</b>" in text and "провал" not in text.lower()


async def test_odds_are_exact(tg: TelegramDriver) -> None:
    text = (await tg.send(ALICE, GROUP, "/odds d8+1")).only_text()
    assert "критический провал: <b>2,08%</b> (1/48)" in text
    assert "подъём: <b>37,5%</b> (3/8)" in text

    # one die at difficulty 6: the 1 is the seed's «провал», 2–5 its «неудача»
    text = (await tg.send(ALICE, GROUP, "/odds p 1 6")).only_text()
    assert "провал: <b>10,0%</b> (1/10)" in text and "неудача: <b>40,0%</b> (2/5)" in text


async def test_notation_error_is_a_clear_russian_message(tg: TelegramDriver) -> None:
    feed = await tg.send(ALICE, GROUP, "/r 1000000d1000000")
    [reply] = feed.sent(GROUP.id)
    assert reply.text == ("Слишком много кубиков: не больше 100 (в «<code>1000000d1000000</code>»)")
    assert reply.params["reply_parameters"]["message_id"] == feed.message["message_id"]
    assert not reply.buttons()


async def test_user_text_is_escaped(tg: TelegramDriver, dp: Dispatcher) -> None:
    script(dp, 2)
    text = (await tg.send(BORIS, GROUP, "/r d6 удар <script>&")).only_text()
    assert "<b>Борис &lt;b&gt;</b>" in text
    assert "<i>удар &lt;script&gt;&amp;</i>" in text


async def test_command_without_arguments_shows_usage(tg: TelegramDriver) -> None:
    text = (await tg.send(ALICE, GROUP, "/t")).only_text()
    assert "<code>/t d8+1</code>" in text


async def test_reroll_only_by_the_roller(
    tg: TelegramDriver, dp: Dispatcher, api: FakeBotAPI
) -> None:
    script(dp, 2, 3)
    [result] = (await tg.send(ALICE, GROUP, "/r 2d6")).sent()

    script(dp, 6, 6)
    stranger = await tg.press(BORIS, result)
    assert stranger.sent() == []
    [toast] = [c for c in stranger.calls if c.method == "answerCallbackQuery"]
    assert toast.params["text"] == "Перебросить может только тот, кто бросал."
    assert toast.params.get("show_alert") in (None, False)

    own = await tg.press(ALICE, result)
    [reroll] = own.sent(GROUP.id)
    assert reroll.text.startswith("🔁 <b>Алиса</b> перебрасывает:")
    assert "2d6 [6, 6] = <b>12</b>" in reroll.text
    assert reroll.params["reply_parameters"]["message_id"] == result.result["message_id"]
    # The new result has its own button (a new roll-log entry).
    assert reroll.buttons()[0]["callback_data"] != result.buttons()[0]["callback_data"]
    assert "answerCallbackQuery" in own.methods()


async def test_unexpected_failure_answers_something_went_wrong(
    tg: TelegramDriver, dp: Dispatcher
) -> None:
    class BrokenRng:
        def randint(self, a: int, b: int) -> int:
            raise RuntimeError("entropy pool on fire")

    dp["rng"] = BrokenRng()
    text = (await tg.send(ALICE, GROUP, "/r 2d6")).only_text()
    assert text.startswith("Что-то пошло не так")
    assert "entropy" not in text and "Traceback" not in text


async def test_huge_roll_keeps_the_totals_within_telegram_limits(tg: TelegramDriver) -> None:
    text = (await tg.send(ALICE, GROUP, "/r 20#100d6!")).only_text()
    assert len(text) < 4096
    assert "(кубиков слишком много, чтобы показать каждый)" in text
    assert text.count("\n20) <b>") == 1


def test_duel_check_rendering(i18n: I18n) -> None:
    with translator("ru", i18n):
        text = render_result(duel("+2", ScriptedRng([10])))
    assert "d10 [10] +2 = <b>12</b>" in text
    assert "<b>критический успех</b>" in text


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_a_bare_commands_examples_are_in_the_users_words_and_each_rolls(
    dp: Dispatcher, i18n: I18n, locale: str
) -> None:
    """`/p` typed bare shows examples from the catalogs, in the user's language (the words
    after the dice are the parser's: «сл», «спец», «вс» or «diff», «spec», «wp»); each one
    rolls as shown."""
    shown: list[str] = []
    with translator(locale, i18n):
        for code in ("r", "t", "dmg", "p", "duel"):
            for word, args in re.findall(r"<code>/(\w+) ([^<]*)</code>", usage(code)):
                assert BY_CHAT[word].code == code
                make_roll(code, html.unescape(args), random.Random(7))  # no DiceError
                shown.append(args)
    assert len(shown) >= 8
    words = {"ru": ("сл 6 спец вс", "цн 6", "против 6"), "en": ("diff 6 spec wp", "tn 6")}
    for phrase in words[locale]:
        assert any(phrase in args for args in shown), phrase
