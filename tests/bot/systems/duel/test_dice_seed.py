"""The topic learns each turn's dice hash when the turn opens (issue 26 item 1): the
opening post and each published turn's post end with it; the published post reveals the
seed that verifies it."""

from __future__ import annotations

import random
import re

from engine.duel import dice_hash
from engine.services import duel as duels
from engine.services import find_game
from tests.bot.conftest import VERA
from tests.support.telegram import TelegramDriver

from .test_duel import FORUM, TOPIC, arena, topic_texts


async def test_the_topic_gets_the_dice_hash_before_anyone_chooses(tg: TelegramDriver) -> None:
    table = await arena(tg)
    tg.dp["rng"] = random.Random(26)  # the system's kind: it gives bits, so it commits
    start = await table.say(VERA, "/duel Бьорн против Такеда")
    (opening,) = topic_texts(start)
    game = await find_game(FORUM.id, None)
    assert game is not None
    view = await duels.current_duel(game.id, TOPIC)
    assert view is not None and view.state.dice_seed
    line = re.search(r"🎲 Ход 1: кости заданы до выбора — SHA-256 зерна: (\S+)", opening)
    assert line is not None and line.group(1) == dice_hash(view.state.dice_seed)  # all of it
    assert view.state.dice_seed not in opening  # the seed stays secret until the reveal
