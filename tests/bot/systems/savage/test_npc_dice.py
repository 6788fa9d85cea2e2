"""What the Mini App hides is not posted in the group (docs/rules/savage.md «Dice in the
group»; engine/savage/observe.py `table_sees_dice`): an NPC's roll, typed in the chat or
made in the Mini App, in a fight or a chase, reaches the group without its die types (its
sheet is the GM's); the GM gets the full line privately. A player's own roll keeps its
dice, and `/char` shows an NPC's sheet to nobody but the GM."""

from __future__ import annotations

import re

from aiogram import Bot, Dispatcher

from bot.miniapp_hooks import ChatHooks
from engine import savage
from engine.dice.rng import ScriptedRng
from engine.savage.chase import ChangePosition
from engine.services import find_game
from engine.services.notify import Notifier, origin, using
from engine.services.savage import chase_command, encounter_command
from tests.bot.conftest import ALICE, BORIS, GROUP, VERA
from tests.bot.systems.savage.test_chase_moves import set_up as chase_set_up
from tests.bot.systems.savage.test_combat import Table, text_of
from tests.bot.systems.savage.test_combat_reroll import ichigo_acts
from tests.support.telegram import TelegramDriver

DIE = re.compile(r"\bd\d+=")  # «d12=3»: a die type with its face
GM_COPY = "🎲 С кубиками, только для ведущего (Пустые земли):"


async def grimmjow_acts(table: Table) -> None:
    await ichigo_acts(table)
    await table.say(BORIS, "/next")
    view = await table.state()
    assert view.state.current == "grimmdzho"


async def test_a_players_roll_keeps_its_dice_in_the_group(tg: TelegramDriver) -> None:
    table = Table(tg)
    await ichigo_acts(table)
    feed = await table.say(BORIS, "/attack Гриммджо", [2, 1])
    assert "d10=2" in text_of(feed)  # Ichigo's own roll, as before
    assert feed.sent(chat_id=ALICE.id) == []  # nothing left out: no copy for the GM


async def test_an_npcs_roll_in_the_chat_has_no_dice_in_the_group(tg: TelegramDriver) -> None:
    table = Table(tg)
    await grimmjow_acts(table)
    missed = await table.say(ALICE, "/attack Ичиго", [3, 2])  # Fighting d12=3 vs Parry 7
    group = "\n".join(c.text for c in missed.sent(chat_id=GROUP.id))
    assert "Гриммджо — атака, Драка → Ичиго: <b>3</b> против 7 → <b>провал</b>" in group
    assert not DIE.search(group) and "Дикий" not in group
    (copy,) = missed.sent(chat_id=ALICE.id)
    assert copy.text.startswith(GM_COPY) and "d12=3" in copy.text and "Дикий d6=2</s>" in copy.text

    # a hit with a raise: the damage dice hold Grimmjow's Strength d12 — none in the group
    await table.say(ALICE, "/undo")
    hit = await table.say(ALICE, "/attack Ичиго", [11, 2, 5, 3, 4])
    group = "\n".join(c.text for c in hit.sent(chat_id=GROUP.id))
    assert "💥 Ичиго: урон <b>12</b> против Стойкости 8 → <b>1 Рана + Шок</b>" in group
    assert not DIE.search(group)
    assert not re.search(r"\[\d", group)  # no faces of the damage dice either
    (copy,) = hit.sent(chat_id=ALICE.id)
    assert "d12=11" in copy.text and "против Стойкости 8" in copy.text


async def test_an_npcs_roll_made_in_the_mini_app_has_no_dice_in_the_group(
    tg: TelegramDriver, bot: Bot, dp: Dispatcher
) -> None:
    table = Table(tg)
    await grimmjow_acts(table)
    game = await find_game(GROUP.id, None)
    assert game is not None
    hooks = ChatHooks.of(bot, dp)
    notifier = Notifier()
    notifier.subscribe(hooks.on_change)
    with using(notifier):
        mark = tg.api.mark()
        with origin("webapp"):
            await encounter_command(
                game.id,
                savage.TraitRoll("grimmdzho", "notice"),
                actor_id=ALICE.id,
                rng=ScriptedRng([3, 5]),
            )
        await hooks.wait_idle()
    (told,) = tg.api.sent(mark, chat_id=GROUP.id)
    assert "Гриммджо" in told.text and "против 4" in told.text
    assert not DIE.search(told.text)
    (copy,) = tg.api.sent(mark, chat_id=ALICE.id)
    assert copy.text.startswith(GM_COPY) and "d4=3" in copy.text
    assert tg.api.sent(mark, chat_id=VERA.id) == [] and tg.api.sent(mark, chat_id=BORIS.id) == []


async def test_an_npcs_sheet_is_shown_to_the_gm_alone(tg: TelegramDriver) -> None:
    table = Table(tg)
    await ichigo_acts(table)
    refused = await table.say(VERA, "/char Пустой")
    assert "Драка" not in "\n".join(c.text for c in refused.sent())
    asked = await table.say(ALICE, "/char Пустой")
    assert "Драка" in asked.only_text(chat_id=ALICE.id)
    assert "Драка" not in "\n".join(c.text for c in asked.sent(chat_id=GROUP.id))


async def test_an_npcs_chase_roll_made_in_the_mini_app_has_no_dice_in_the_group(
    tg: TelegramDriver, bot: Bot, dp: Dispatcher
) -> None:
    table = Table(tg)
    await chase_set_up(table)
    await table.say(ALICE, "/next", await table.shuffle("2S", "3D", "QH", "KH"))  # Grimmjow K♥
    game = await find_game(GROUP.id, None)
    assert game is not None
    hooks = ChatHooks.of(bot, dp)
    notifier = Notifier()
    notifier.subscribe(hooks.on_change)
    with using(notifier):
        mark = tg.api.mark()
        with origin("webapp"):
            await chase_command(
                game.id, ChangePosition("grimmdzho", +1), actor_id=ALICE.id, rng=ScriptedRng([3, 2])
            )
        await hooks.wait_idle()
    (told,) = tg.api.sent(mark, chat_id=GROUP.id)
    assert "Гриммджо меняет позицию" in told.text and "<b>3</b> против 4" in told.text
    assert not DIE.search(told.text)
    (copy,) = tg.api.sent(mark, chat_id=ALICE.id)
    assert copy.text.startswith(GM_COPY) and "d10=3" in copy.text
