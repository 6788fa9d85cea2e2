"""Damage, states and bennies: /hit, /soak, /take, /unshake, /benny, /reroll (and its
button), /shaken, /cond, /fatigue, /status."""

from __future__ import annotations

from aiogram import Bot, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message

from bot.middlewares.refusals import Refusal
from bot.systems.savage.callbacks import BennyRerollCallback
from bot.systems.savage.combat.names import Ref
from bot.systems.savage.combat.scene import (
    Call,
    call_of,
    character_id,
    encounter_of,
    game_by_id,
    perform,
    target_ref,
)
from bot.systems.savage.combat.words import (
    CONDITION_WORDS,
    ArgsError,
    duration,
    number,
    signed_int,
    status_changes,
)
from bot.systems.savage.render import combat_states as texts
from bot.systems.savage.render.rule_errors import bad_word
from engine import savage
from engine.dice.rng import Rng
from engine.services.errors import StaleState
from engine.words import fold as norm

AP_WORDS = ("бп", "ap", "пб")


def register(router: Router) -> None:
    router.message.register(on_hit, Command("hit"))
    router.message.register(on_soak, Command("soak"))
    router.message.register(on_take, Command("take"))
    router.message.register(on_unshake, Command("unshake"))
    router.message.register(on_benny, Command("benny"))
    router.message.register(on_reroll, Command("reroll", "переброс"))
    router.callback_query.register(on_reroll_button, BennyRerollCallback.filter())
    router.message.register(on_shaken, Command("shaken"))
    router.message.register(on_cond, Command("cond"))
    router.message.register(on_fatigue, Command("fatigue"))
    router.message.register(on_status, Command("status"))


async def on_hit(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)
    if not call.words:
        raise Refusal(texts.hit_usage())
    target, rest = target_ref(call.state, call.words)
    amount, dice, ap = None, "", 0
    i = 0
    while i < len(rest):
        w = norm(rest[i])
        if w in AP_WORDS and i + 1 < len(rest) and number(rest[i + 1]) is not None:
            ap, i = number(rest[i + 1]) or 0, i + 1
        elif number(w) is not None and amount is None and not dice:
            amount = number(w)
        elif not dice and amount is None and any(ch.isdigit() for ch in w):
            dice = w
        else:
            raise Refusal(bad_word(rest[i]))
        i += 1
    if amount is None and not dice:
        raise Refusal(texts.hit_usage())
    cmd = savage.ApplyDamage(character_id(target), amount=amount, dice=dice, ap=ap)
    await call.run(bot, cmd, rng)


def _pending_or_actor(call: Call) -> str:
    """The character whose damage waits (by default), or the one named."""
    if call.words:
        ref, _ = target_ref(call.state, call.words)
        return character_id(ref)
    if call.state.pending is not None:
        return call.state.pending.character
    actor, _ = call.actor()
    return character_id(actor)


async def on_soak(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)
    await call.run(bot, savage.Soak(_pending_or_actor(call)), rng)


async def on_take(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)
    await call.run(bot, savage.AcceptDamage(_pending_or_actor(call)), rng)


async def on_unshake(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)
    actor, _ = call.actor()
    await call.run(bot, savage.Unshake(character_id(actor)), rng)


async def on_reroll(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    """A benny re-rolls the last trait roll of this turn: of the one named, else of the
    character whose damage waits (a Soak), else the sender's own (the acting one)."""
    call = await call_of(message, command.args)
    if call.words:
        ref, rest = target_ref(call.state, call.words)
        if rest:
            raise Refusal(bad_word(rest[0]))
        who = character_id(ref)
    else:
        who = _pending_or_actor(call)
    await call.run(bot, savage.Reroll(who), rng)


async def on_reroll_button(
    query: CallbackQuery, callback_data: BennyRerollCallback, bot: Bot, rng: Rng
) -> None:
    game = await game_by_id(callback_data.game_id)
    view = await encounter_of(game)
    record = view.state.last_roll(callback_data.character)
    if record is None or record.step != callback_data.step:
        raise savage.RuleError("reroll_too_late", {"id": callback_data.character})
    command = savage.Reroll(callback_data.character)
    # The roll checked above must still be the last step when the re-roll is written: a
    # double tap spends one benny, the second press is refused as stale.
    try:
        await perform(
            bot, game, query.from_user.id, command, rng, before=view.state, expected_seq=view.seq
        )
    except StaleState:
        raise savage.RuleError("reroll_too_late", {"id": callback_data.character}) from None
    await query.answer()


async def on_benny(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)
    if not call.words:
        raise Refusal(texts.benny_usage())
    target, rest = target_ref(call.state, call.words)
    count = 1
    if rest:
        value = signed_int(rest[0]) if rest[0][0] in "+-−" else number(rest[0])
        if value is None or len(rest) > 1:
            raise Refusal(bad_word(rest[-1]))
        count = value
    await call.run(bot, savage.GiveBennies(character_id(target), count), rng)


async def on_shaken(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)
    if not call.words:
        raise Refusal(texts.cond_usage())
    target, _ = target_ref(call.state, call.words)
    await call.run(bot, savage.SetCondition(character_id(target), "shaken"), rng)


async def on_cond(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)
    if not call.words:
        raise Refusal(texts.cond_usage())
    target, rest = target_ref(call.state, call.words)
    until, rest = duration(rest)
    if len(rest) != 1:
        raise Refusal(texts.cond_usage())
    word = rest[0]
    remove = word[0] in "-−"
    kind = CONDITION_WORDS.get(norm(word.lstrip("-−+")))
    if kind is None:
        raise Refusal(bad_word(word))
    cid = character_id(target)
    cmd: savage.Command = (
        savage.ClearCondition(cid, kind) if remove else savage.SetCondition(cid, kind, until)
    )
    await call.run(bot, cmd, rng)


async def on_fatigue(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)
    if not call.words:
        raise Refusal(texts.fatigue_usage())
    target, rest = target_ref(call.state, call.words)
    delta = signed_int(rest[0]) if len(rest) == 1 else (1 if not rest else None)
    if delta is None:
        raise Refusal(texts.fatigue_usage())
    await call.run(bot, savage.ChangeFatigue(character_id(target), delta), rng)


async def on_status(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)
    if not call.words:
        raise Refusal(texts.status_usage())
    target: Ref
    target, rest = target_ref(call.state, call.words)
    try:
        changes = status_changes(rest)
    except ArgsError as error:
        raise Refusal(bad_word(error.word)) from None
    if not changes:
        raise Refusal(texts.status_usage())
    await call.run(bot, savage.SetStatus(character_id(target), changes), rng)
