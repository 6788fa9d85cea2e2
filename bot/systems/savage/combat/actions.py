"""Actions on a turn: /attack, /check, /support, /test, /defend, /aim, /escape."""

from __future__ import annotations

from typing import Any

from aiogram import Bot, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import Message

from bot.middlewares.refusals import Refusal
from bot.systems.savage.combat import names
from bot.systems.savage.combat.scene import Call, call_of, character_id, default_ref
from bot.systems.savage.combat.words import (
    CONDITION_WORDS,
    ArgsError,
    attack_args,
    number,
    roll_modifiers,
    trait_word,
)
from bot.systems.savage.render import combat_actions as texts
from bot.systems.savage.render.rule_errors import bad_word, unknown_name, whose
from engine import savage
from engine.dice.rng import Rng
from engine.words import fold as norm

TN_WORDS = ("цн", "tn", "сл", "против")
FREE_WORDS = ("свободно", "свободная", "свободный", "free")
IGNORE_WORDS = ("игнор", "игнорировать", "ignore")


def register(router: Router) -> None:
    router.message.register(on_attack, Command("attack"))
    router.message.register(on_check, Command("check"))
    router.message.register(on_support, Command("support"))
    router.message.register(on_test, Command("test"))
    router.message.register(on_defend, Command("defend"))
    router.message.register(on_aim, Command("aim"))
    router.message.register(on_escape, Command("escape"))


def actor_and_other(call: Call) -> tuple[names.Ref, names.Ref, list[str]]:
    """«[кто] <цель> …»: two names, or one (the other is the default actor)."""
    first, rest = names.take(call.state, call.words)
    if first is None:
        raise Refusal(unknown_name(call.words[0]) if call.words else whose())
    second, after = names.take(call.state, rest)
    if second is not None:
        return first, second, after
    actor = default_ref(call.state, call.user_id, call.gm)
    if actor is None:
        raise Refusal(whose())
    return actor, first, rest


def _args(fn: Any, words: list[str]) -> Any:
    try:
        return fn(words)
    except ArgsError as error:
        raise Refusal(bad_word(error.word)) from None


async def on_attack(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)
    if not call.words:
        raise Refusal(texts.attack_usage())
    actor, target, rest = actor_and_other(call)
    a = _args(attack_args, rest)
    cmd = savage.Attack(
        character_id(actor),
        character_id(target),
        skill=a.skill,
        damage=a.damage,  # "": the skill's default (engine.savage.actions.default_damage)
        ap=a.ap,
        range=a.range,
        cover=a.cover,
        light=a.light,
        called_shot=a.called_shot,
        gang_up=a.gang_up,
        the_drop="the_drop" in a.flags,
        wild_attack="wild_attack" in a.flags,
        free="free" in a.flags,
        modifiers=tuple(a.modifiers),
    )
    await call.run(bot, cmd, rng)


def _tn_and_free(words: list[str]) -> tuple[int, bool, list[str]]:
    tn, free, rest = 4, False, []
    i = 0
    while i < len(words):
        w = norm(words[i])
        if w in TN_WORDS and i + 1 < len(words) and number(words[i + 1]) is not None:
            tn, i = number(words[i + 1]) or 4, i + 1
        elif w in FREE_WORDS:
            free = True
        else:
            rest.append(words[i])
        i += 1
    return tn, free, rest


async def on_check(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)
    if not call.words:
        raise Refusal(texts.check_usage())
    actor, rest = call.actor()
    mods, rest = roll_modifiers(rest)
    tn, free, rest = _tn_and_free(rest)
    trait, left = trait_word(rest)
    if trait is None and rest:  # a custom skill, as written on the sheet
        trait, left = "_".join(norm(w) for w in rest), []
    if trait is None:
        raise Refusal(texts.check_usage())
    if left:
        raise Refusal(bad_word(left[0]))
    cmd = savage.TraitRoll(character_id(actor), trait, tn=tn, free=free, modifiers=mods)
    await call.run(bot, cmd, rng)


async def on_support(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)
    if not call.words:
        raise Refusal(texts.support_usage())
    actor, ally, rest = actor_and_other(call)
    mods, rest = roll_modifiers(rest)
    skill, rest = trait_word(rest)
    for_trait = ""
    if rest and norm(rest[0]) in ("для", "for", "на"):
        named, rest = trait_word(rest[1:])
        for_trait = named or ""
    if skill is None or rest:
        raise Refusal(texts.support_usage())
    cmd = savage.Support(
        character_id(actor), character_id(ally), skill, for_trait=for_trait, modifiers=mods
    )
    await call.run(bot, cmd, rng)


async def on_test(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)
    if not call.words:
        raise Refusal(texts.test_usage())
    actor, target, rest = actor_and_other(call)
    mods, rest = roll_modifiers(rest)
    skill, rest = trait_word(rest)
    effect, attribute = "distracted", ""
    while rest:
        w = norm(rest[0])
        if CONDITION_WORDS.get(w) in ("distracted", "vulnerable"):
            effect, rest = CONDITION_WORDS[w], rest[1:]
        elif w in ("против", "vs") and len(rest) > 1:
            named, rest = trait_word(rest[1:])
            attribute = named or ""
        else:
            raise Refusal(bad_word(rest[0]))
    if skill is None:
        raise Refusal(texts.test_usage())
    cmd = savage.Test(
        character_id(actor),
        character_id(target),
        skill,
        effect=effect,
        attribute=attribute,
        modifiers=mods,
    )
    await call.run(bot, cmd, rng)


async def on_defend(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)
    actor, _ = call.actor()
    await call.run(bot, savage.Defend(character_id(actor)), rng)


async def on_aim(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)
    actor, rest = call.actor()
    mode = "ignore" if rest and norm(rest[0]) in IGNORE_WORDS else "bonus"
    await call.run(bot, savage.Aim(character_id(actor), mode), rng)


async def on_escape(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)
    actor, rest = call.actor()
    trait, _ = trait_word(rest)
    cmd = savage.EscapeBonds(character_id(actor), trait if trait == "strength" else "athletics")
    await call.run(bot, cmd, rng)
