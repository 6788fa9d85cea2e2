"""Who may set what in the chat (engine/savage/authority.py; docs/rules/savage.md «Who may
set what»): a player's forged modifiers and target number are refused in Russian, the GM's
bounded ones work, each situation a player declares still works, and `/scene` hands the
light and The Drop to the players."""

from __future__ import annotations

from tests.bot.conftest import ALICE, BORIS
from tests.bot.systems.savage.test_combat import Table, text_of
from tests.bot.systems.savage.test_combat_reroll import ichigo_acts
from tests.support.telegram import TelegramDriver

NO_FREE = "Свободный модификатор к броску добавляет только ведущий"


async def last_roll_mods(table: Table) -> dict[str, int]:
    view = await table.state()
    last = view.state.last_roll("ichigo")
    assert last is not None
    return {m.label: m.value for m in last.result.modifiers}


async def test_a_players_forged_plus_120_is_refused(tg: TelegramDriver) -> None:
    table = Table(tg)
    await ichigo_acts(table)
    forged = text_of(await table.say(BORIS, "/check внимание +20 +20 +20 +20 +20 +20"))
    assert forged.startswith(NO_FREE) and "дальность, укрытие" in forged
    one = text_of(await table.say(BORIS, "/attack Гриммджо +1"))
    assert one.startswith(NO_FREE)
    tn = text_of(await table.say(BORIS, "/check внимание цн 2"))
    assert tn == "Другую сложность назначает только ведущий: игрок бросает против 4."
    view = await table.state()
    assert view.state.last_roll("ichigo") is None  # nothing was rolled
    # the player's own roll, without them, goes through
    await table.say(BORIS, "/check внимание", [3, 5])
    assert await last_roll_mods(table) == {"unskilled": -2}


async def test_the_gms_bounded_modifier_works_and_a_larger_one_is_refused(
    tg: TelegramDriver,
) -> None:
    table = Table(tg)
    await ichigo_acts(table)
    too_much = text_of(await table.say(ALICE, "/check Ичиго внимание +6 +6"))
    assert too_much == "Свободные модификаторы одного броска в сумме не больше ±10."
    rolled = text_of(await table.say(ALICE, "/check Ичиго внимание +10 цн 6", [3, 5]))
    assert "Ичиго" in rolled
    assert await last_roll_mods(table) == {"unskilled": -2, "modifier": 10}
    view = await table.state()
    last = view.state.last_roll("ichigo")
    assert last is not None and last.result.tn == 6


async def test_a_player_declares_the_situation_and_the_gm_may_hand_over_the_light(
    tg: TelegramDriver,
) -> None:
    table = Table(tg)
    await ichigo_acts(table)
    dark = text_of(await table.say(BORIS, "/attack Гриммджо темнота"))
    assert dark == (
        "В этой игре освещение и атаку врасплох задаёт ведущий. "
        "Ведущий может доверить это игрокам: /scene игроки."
    )
    refused = text_of(await table.say(BORIS, "/scene игроки"))
    assert "ведущ" in refused.lower()
    shown = text_of(await table.say(ALICE, "/scene"))
    assert shown.startswith("💡 Освещение и атаку врасплох задаёт ведущий")
    handed = text_of(await table.say(ALICE, "/scene игроки"))
    assert handed.startswith("💡 Освещение и атаку врасплох для своих атак игроки заявляют сами")
    # two actions (−2), Wild Attack (+2), the darkness (−4): a critical failure, no damage
    await table.say(BORIS, "/actions 2")
    await table.say(BORIS, "/attack Гриммджо безрассудная темнота голова", [1, 1])
    assert await last_roll_mods(table) == {
        "multi_action": -2,
        "called_shot": -4,
        "illumination": -4,
        "wild_attack": 2,
    }
    back = text_of(await table.say(ALICE, "/scene ведущий"))
    assert back.startswith("💡 Освещение и атаку врасплох задаёт ведущий")
    again = text_of(await table.say(BORIS, "/attack Гриммджо врасплох"))
    assert again.startswith("В этой игре освещение и атаку врасплох задаёт ведущий.")
