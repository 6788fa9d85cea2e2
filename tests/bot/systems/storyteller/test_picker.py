"""The attack picker's aimed target and multiple actions (issue 25, item 1): the very
`Attack` the typed `/actions` + `/attack` make, and their refusal in the same words, typed
and tapped. Seed 002: «Прицеливаясь, сложность броска на меткий выстрел или удар
увеличивается. Прицелившись, ваш персонаж может обойти броню и другую защиту, а также
нанести дополнительный урон»; «Маленькая (кисть руки, голова, оружие): +2 // +1»; multiple
actions «(см. "Множественные действия")», a section the seed lacks — DESIGN.md's «declare N
actions, the first pool loses N dice and each next one one die more»."""

from __future__ import annotations

import asyncio
import dataclasses
import time

from bot.i18n import translator
from bot.systems.storyteller.callbacks import AttackCallback
from bot.systems.storyteller.picker import picker_keyboard, picker_text
from engine.dice.rng import ScriptedRng
from engine.services import find_game
from engine.services.storyteller import fight_command
from engine.storyteller import commands as cmd
from tests.bot.conftest import ALICE, BORIS, GROUP
from tests.bot.systems.storyteller.test_fight import SLOW, Table, set_up
from tests.engine.storyteller import test_fight as scripted
from tests.support.fake_botapi import ApiCall
from tests.support.telegram import Feed, TelegramDriver

SHOT = [9, 9, 9, 2, 9, 9, 2, 2, 2, 2, 2]  # three successes, then the damage's dice


def alerts(feed: Feed) -> list[str]:
    return [
        c.params["text"]
        for c in feed.calls
        if c.method == "answerCallbackQuery" and c.params.get("show_alert")
    ]


def picker(feed: Feed) -> ApiCall:
    return next(c for c in feed.calls if c.method in ("sendMessage", "editMessageText"))


def board(tg: TelegramDriver) -> ApiCall:
    """The group's newest board (the pickers' texts start as the board's do)."""
    return next(
        c
        for c in reversed(tg.api.calls)
        if c.chat_id == GROUP.id and any("Инициатива" in b["text"] for b in c.buttons())
    )


async def test_aim_and_split_tapped_as_typed(tg: TelegramDriver) -> None:
    table = Table(tg)
    await set_up(table)
    await table.say(ALICE, "/init", [3, 6, 3, 5, 5, 2])  # Вероника and Макс are up
    game = await find_game(GROUP.id, None)
    assert game is not None
    shown = picker(await table.press(BORIS, board(tg), "Атака"))
    for label in ("Босс", "Пистолет", "🎯 Маленькая", "3 действия: 3+2+1 куб."):
        shown = picker(await table.press(BORIS, shown, label))
    assert "Запас: 3 куб., сложность 8" in shown.text  # 4 + 3 − 1 (the vest) − 3

    # the GM allows two actions a turn from now on (the fight's options): the keyboard
    # still offers three, and both ways are refused in the engine's one sentence
    fight = (await table.fight()).options
    two = cmd.Configure(dataclasses.replace(fight, max_actions=2))
    await fight_command(game.id, two, actor_id=ALICE.id, rng=ScriptedRng([]))
    refusal = "Заявить можно от 1 до 2 действий."
    assert refusal in alerts(await table.press(BORIS, shown, "⚔️ Атака"))
    assert refusal in "\n".join(c.text for c in (await table.say(BORIS, "/actions 3")).sent())

    # tapped: two actions with the aimed shot, reviewed by the GM, then dropped
    shown = picker(await table.press(BORIS, board(tg), "Атака"))
    for label in ("Босс", "Пистолет", "🎯 Маленькая", "2 действия: 4+3 куб."):
        shown = picker(await table.press(BORIS, shown, label))
    assert "3 действия" not in str(shown.buttons())  # the fight's limit now
    tg.dp["rng"] = ScriptedRng(list(SHOT))
    tapped = await tg.press(BORIS, shown, [b["text"] for b in shown.buttons()].index("⚔️ Атака"))
    proposal = (await table.fight()).proposal
    assert proposal is not None
    review = "\n".join(c.text for c in tapped.sent(ALICE.id))
    await table.say(ALICE, "/drop")
    # typed: the same attack after /actions, the same review
    await table.say(BORIS, "/actions 2")
    typed = await table.say(BORIS, "/attack Босс Пистолет прицел маленькая", list(SHOT))
    again = (await table.fight()).proposal
    assert again is not None and again.attack == dataclasses.replace(proposal.attack, actions=0)
    assert proposal.attack.situation.aim == "small" and proposal.attack.actions == 2
    # the same dice, pools and damage; the tapped review also tells the declaration
    declared = "<b>Вероника</b> заявляет 2 действия.\n"
    assert "(сложность 8)" in review and declared in review
    assert review.replace(declared, "") == "\n".join(c.text for c in typed.sent(ALICE.id))


def test_an_npc_picker_in_the_group_shows_no_dice() -> None:
    """A GM without a private chat with the bot picks an NPC's attack in the group: the
    options are named, the NPC's pool is not (its numbers are the GM's)."""
    g = scripted.new_game()
    g.do(cmd.StartTurn(), [1, 1, 10, 1, 1, 1])  # Босс is up
    fight = g.state
    ids = [f.id for f in fight.fighters]
    data = AttackCallback(game_id=1, a=ids.index("boss"), t=ids.index("vera"), w=0, n=2)
    shown = {}
    with translator("ru"):
        for numbers in (True, False):
            keyboard = picker_keyboard(fight, data, numbers).inline_keyboard
            labels = "\n".join(b.text for row in keyboard for b in row)
            shown[numbers] = picker_text(fight, data, numbers) + "\n" + labels
    assert "Запас: " in shown[True] and "2 действия: " in shown[True]
    assert "куб." not in shown[False] and "Запас" not in shown[False]
    assert "☑️ ✌️ 2 действия" in shown[False] and "🎯 Маленькая" in shown[False]


async def test_an_npc_picker_goes_to_the_group_when_the_gm_has_no_private_chat(
    tg: TelegramDriver, journaled: TelegramDriver
) -> None:
    """The GM taps «Attack» for the NPC who is up: the picker goes to the GM's private chat —
    refused there (the GM never started the bot), it is posted in the group, without the
    NPC's dice; the tap does not wait for Telegram's answer to learn it."""
    table = Table(tg)
    await set_up(table)
    await table.say(ALICE, "/init", [1, 1, 10, 1, 1, 1])  # Босс is up
    tg.api.forbid(ALICE.id)
    tg.api.slow_down("sendMessage", SLOW)  # Telegram takes its time: the tap does not wait
    mark = tg.api.mark()
    await journaled.press(
        ALICE, board(tg), [b["text"] for b in board(tg).buttons()].index("⚔️ Атака")
    )
    returned = time.perf_counter()
    async with asyncio.timeout(5):
        while not (posted := tg.api.sent(mark, GROUP.id)):
            await asyncio.sleep(0.05)
    (refused,) = [c for c in tg.api.since(mark, "sendMessage") if c.chat_id == ALICE.id]
    assert refused.result is None  # refused after the tap was answered
    assert refused.received + SLOW > returned
    (shown,) = posted
    assert "⚔️ <b>Босс</b> атакует. Кого?" in shown.text and "Запас" not in shown.text
