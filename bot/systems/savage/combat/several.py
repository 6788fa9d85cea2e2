"""`/add Ичиго, Рукия, Пустой ×2`: several saved characters at once, told in one message —
who joined, and for each name that could not be added, which one and why (issue 12,
item 11). A name that is not saved adds nothing of its own; the others still join."""

from __future__ import annotations

import re

from aiogram import Bot

from bot.middlewares.refusals import Refusal
from bot.render.errors import service_error_text
from bot.systems.savage.combat.names import COUNT_MARK
from bot.systems.savage.combat.scene import Call
from bot.systems.savage.combat.tell import Step, steps_of, tell_steps
from bot.systems.savage.render import combat_setup as texts
from bot.systems.savage.render.rule_errors import combat_error_text
from engine import savage
from engine.dice.rng import Rng
from engine.services.errors import ServiceError
from engine.services.savage import add_to_encounter, get_character

SEPARATOR = re.compile(r"\s*[,;]\s*")
_COUNT = re.compile(r"^(?P<name>.+?)" + COUNT_MARK, re.IGNORECASE)


def split_names(args: str) -> list[str]:
    """The names of `/add a, b; c` as written (a character block is never split)."""
    return [part for part in SEPARATOR.split(args.strip()) if part]


def name_and_count(part: str) -> tuple[str, int | None]:
    """«Пустой ×2» -> ("Пустой", 2); «Ичиго» -> ("Ичиго", None)."""
    match = _COUNT.match(part)
    return (match["name"], int(match[2])) if match else (part, None)


def _reason(error: Exception) -> str:
    if isinstance(error, savage.RuleError):
        return combat_error_text(error.code, error.params)
    assert isinstance(error, ServiceError)
    return service_error_text(error)


async def add_several(bot: Bot, call: Call, parts: list[str], rng: Rng) -> None:
    if not call.gm:  # the same refusal for every name: say it once
        raise savage.RuleError("gm_only")
    added: list[str] = []
    failed: list[tuple[str, str]] = []
    steps: list[Step] = []
    before = None
    for part in parts:
        name, count = name_and_count(part)
        try:
            await get_character(call.game.id, name)  # no_character before anything else
            out = await add_to_encounter(
                call.game.id, name, actor_id=call.user_id, count=count, rng=rng
            )
        except (ServiceError, savage.RuleError) as error:
            failed.append((part, _reason(error)))
            continue
        before = before or out.before
        added.append(part)
        steps += [Step("encounter", out.events, out.state, out.view(call.game.id))]
        steps += steps_of(call.game.id, out.followed)
    note = texts.add_several_summary(added, failed)
    if not steps:
        raise Refusal(note)
    await tell_steps(bot, call.game, steps, before=before, reply_to=call.message, note=note)
