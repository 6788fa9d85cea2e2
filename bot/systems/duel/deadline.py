"""The duel's deadline in the chat: ``/duel срок 24ч [спросить|защита|ждать]`` read here, and
the loop that acts on the deadlines that passed (started with the bot, bot/runner.py): it
reads the stored duels each minute, so a deadline set before a restart is kept after it."""

from __future__ import annotations

import logging
import re
import time

from aiogram import Bot

from bot import background
from bot.middlewares.flood import step_and_its_chat
from bot.systems.duel.tell import tell
from engine import duel
from engine.dice.rng import Rng, system_rng
from engine.services import ServiceError, get_game
from engine.services import duel as duels

log = logging.getLogger(__name__)

EVERY = 60.0  # seconds between two passes of the loop
WORDS = ("срок", "дедлайн", "deadline")
_HOURS = re.compile(r"^(\d{1,4})\s*(ч|час|часа|часов|h|д|дн|дня|дней|сут|суток|d)?$")
_DAYS = frozenset(("д", "дн", "дня", "дней", "сут", "суток", "d"))
OFF = frozenset(("нет", "выкл", "off", "none", "0"))
POLICY_WORDS: dict[str, duel.Policy] = {
    "спросить": "ask",
    "ведущий": "ask",
    "ask": "ask",
    "защита": "defend",
    "оборона": "defend",
    "defend": "defend",
    "ждать": "wait",
    "wait": "wait",
}


class BadDeadline(ValueError):
    """Not a deadline the command understands (the reply shows the usage)."""


def parse_deadline(text: str) -> tuple[int | None, duel.Policy]:
    """«24ч», «2д защита», «12 ч ждать», «нет» -> (hours or None, policy)."""
    words = text.strip().lower().split()
    policy: duel.Policy = "ask"
    if words and words[-1] in POLICY_WORDS:
        policy = POLICY_WORDS[words.pop()]
    rest = " ".join(words)
    if rest in OFF:
        return None, policy
    match = _HOURS.fullmatch(rest)
    if match is None:
        raise BadDeadline(text)
    n = int(match.group(1))
    return (n * 24 if match.group(2) in _DAYS else n), policy


async def pass_due(bot: Bot, now: float | None = None, rng: Rng | None = None) -> int:
    """Act on every deadline that passed (each once: a pass another worker made first is
    refused by the engine and skipped); how many were passed here."""
    now = time.time() if now is None else now
    rng = rng or system_rng()
    passed = 0
    for view in await duels.due_duels(now):
        thread = duels.thread_of(view.stream)
        try:
            game = await get_game(view.game_id)
            async with step_and_its_chat(bot):  # the pass and what it tells, one transaction
                out = await duels.pass_deadline(
                    view.game_id, thread, turn=view.state.turn, now=now, rng=rng
                )
                if out is not None:
                    await tell(bot, game, out.stream, out.events, out.state)
        except (duel.DuelError, ServiceError):  # passed meanwhile, or the duel is gone
            continue
        passed += out is not None
    return passed


async def deadlines_forever(bot: Bot, every: float = EVERY) -> None:
    await background.every(every, lambda: pass_due(bot), "the duels' deadlines")
