"""A Storyteller fight step made in the Mini App, told in the chat: a proposal reaches the GM
in private and the table learns only that the GM decides; its publication is posted with
the dice and the board message is edited in place."""

from __future__ import annotations

from aiogram import Bot, Dispatcher

from bot.miniapp_hooks import ChatHooks
from engine.dice.rng import ScriptedRng
from engine.services import find_game
from engine.services.notify import Notifier, origin, using
from engine.services.storyteller import fight_command
from engine.storyteller import commands as cmd
from tests.bot.conftest import ALICE, GROUP, VERA
from tests.bot.systems.storyteller.test_fight import BOARD, Table, set_up
from tests.support.telegram import TelegramDriver


async def test_a_step_made_in_the_app_is_told_in_the_chat(
    tg: TelegramDriver, bot: Bot, dp: Dispatcher
) -> None:
    table = Table(tg)
    await set_up(table)
    await table.say(ALICE, "/init", [3, 6, 3, 5, 5, 2])  # Vera 10, Max 10, …
    board = table.board()
    game = await find_game(GROUP.id, None)
    assert game is not None
    hooks = ChatHooks.of(bot, dp)
    notifier = Notifier()
    notifier.subscribe(hooks.on_change)
    max_id = next(f.id for f in (await table.fight()).fighters if f.character.name == "Макс")
    thug = next(f.id for f in (await table.fight()).fighters if f.character.name == "Бандит 2")
    with using(notifier):
        mark = tg.api.mark()
        with origin("webapp"):
            await fight_command(
                game.id,
                cmd.Attack(max_id, thug, "Кулак"),
                actor_id=VERA.id,
                rng=ScriptedRng([9, 9, 2, 2, 2, 6, 6, 6, 2, 2, 2, 2, 2]),  # attack, damage, soak
            )
        await hooks.wait_idle()
        [review] = tg.api.sent(mark, chat_id=ALICE.id)
        assert "Предложение" in review.text and "[<b>9</b>, <b>9</b>, 2, 2, 2]" in review.text
        [notice] = tg.api.sent(mark, chat_id=GROUP.id)
        assert "ведущий" in notice.text and "[" not in notice.text
        mark = tg.api.mark()
        with origin("webapp"):
            await fight_command(game.id, cmd.Publish(), actor_id=ALICE.id, rng=ScriptedRng([]))
        await hooks.wait_idle()
        [told] = tg.api.sent(mark, chat_id=GROUP.id)
        assert "⚔️ Атака: <b>Макс</b> → <b>Бандит 2</b>" in told.text
        edits = [c for c in tg.api.since(mark, "editMessageText") if c.text.startswith(BOARD)]
        assert edits and edits[-1].params["message_id"] == board.result["message_id"]
