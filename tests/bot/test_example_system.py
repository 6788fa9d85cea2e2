"""A fourth system's rolls in the chat, from the test tree (tests/support/coins): registered
through the engine's and the chat's registrations only, its /coin is a chat command, its
result reads as it says, /odds finds its word; and the shared modules are untouched
(tests/test_shared_layers.py)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from fractions import Fraction

import pytest
from aiogram import Dispatcher
from aiogram.utils.i18n import I18n

from bot.app import build_dispatcher
from bot.settings import Settings
from bot.systems import registry
from engine.dice import ScriptedRng, odds, result_from_dict
from engine.dice.commands import BY_CODE, make_roll
from engine.dice.results import RESULTS
from engine.services import systems
from tests.bot.conftest import ALICE, GROUP
from tests.support import coins
from tests.support.telegram import TelegramDriver


@pytest.fixture
def installed() -> Iterator[None]:
    with coins.installed():
        yield


@pytest.fixture
def dp(installed: None, db: object, settings: Settings, i18n: I18n) -> Dispatcher:
    """The dispatcher built once the system is in: its routers take the roll commands then."""
    return build_dispatcher(settings, rng=random.Random(1), i18n=i18n)


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
            systems.register(coins.engine.COINS)
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
