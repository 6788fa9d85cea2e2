"""Turns: /next, /hold, /act, /interrupt, /card, /actions, and the board's buttons."""

from __future__ import annotations

from aiogram import Bot, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message

from bot.board_message import post_in_game
from bot.middlewares.refusals import Refusal
from bot.render.common import as_plain
from bot.systems.savage.callbacks import CombatCallback
from bot.systems.savage.chase.board import show_chase
from bot.systems.savage.combat import names
from bot.systems.savage.combat.board import show_board
from bot.systems.savage.combat.scene import call_of, character_id, encounter_of, game_by_id, perform
from bot.systems.savage.combat.words import number
from bot.systems.savage.render import combat_events
from bot.systems.savage.render import combat_setup as setup_texts
from bot.systems.savage.render import combat_turns as texts
from bot.systems.savage.render.combat import shaken_actor
from bot.systems.savage.render.rule_errors import unknown_name
from engine import savage
from engine.dice.rng import Rng
from engine.services import GameInfo
from engine.services.errors import StaleState
from engine.services.savage import undo_encounter


def register(router: Router) -> None:
    router.message.register(on_next, Command("next"))
    router.message.register(on_hold, Command("hold"))
    router.message.register(on_act, Command("act"))
    router.message.register(on_interrupt, Command("interrupt"))
    router.message.register(on_card, Command("card"))
    router.message.register(on_actions, Command("actions"))
    router.callback_query.register(on_board_button, CombatCallback.filter())


async def on_next(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args, read=False)  # no fight: the step says so
    await call.run(bot, savage.NextTurn(), rng)


async def on_hold(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)
    ref, _ = call.actor()
    await call.run(bot, savage.Hold(ref.combatant.id), rng)


async def on_act(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)
    ref = _out_of_order(call.state, call.words, call.user_id, call.gm)
    await call.run(bot, savage.ActNow(ref.combatant.id), rng)


async def on_interrupt(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)
    ref = _out_of_order(call.state, call.words, call.user_id, call.gm)
    await call.run(bot, savage.Interrupt(ref.combatant.id), rng)


async def on_card(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)
    ref, _ = call.actor()
    await call.run(bot, savage.DrawNewCard(ref.combatant.id), rng)


async def on_actions(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)
    count = number(call.words[0]) if call.words else None
    if count is None:
        raise Refusal(texts.actions_usage())
    call.words = call.words[1:]
    ref, _ = call.actor()
    # The chase turn counts them too (engine/savage/chase/follow.py), in the same step.
    await call.run(bot, savage.DeclareActions(character_id(ref), count), rng)


def _candidates(state: savage.Encounter, user_id: int | None) -> list[savage.Combatant]:
    """Combatants that may act out of order now: on Hold, or an unused Joker."""
    return [
        c
        for c in state.combatants
        if c.id != state.current
        and (c.hold or (c.has_joker and not c.acted))
        and (user_id is None or user_id in state.owners(c.id))
    ]


def _out_of_order(state: savage.Encounter, words: list[str], user_id: int, gm: bool) -> names.Ref:
    ref, _ = names.take(state, words)
    if ref is not None:
        return ref
    if words:
        raise Refusal(unknown_name(words[0]))
    found = _candidates(state, None if gm else user_id)
    if len(found) != 1:
        raise Refusal(texts.name_who_acts())
    return names.Ref(found[0], found[0].members[0] if len(found[0].members) == 1 else None)


# --- the board's buttons -------------------------------------------------------------------


async def on_board_button(
    query: CallbackQuery, callback_data: CombatCallback, bot: Bot, rng: Rng
) -> None:
    """A board button acts on the board as it was shown: `seq` is checked inside the write
    (two presses of «Дальше» in one batch advance one turn); a stale press gets the fresh
    board and an alert, and nothing is applied."""
    game = await game_by_id(callback_data.game_id)
    view = await encounter_of(game)
    seen = callback_data.seq
    try:
        if view.seq != seen:
            raise StaleState(stream=view.stream, seq=view.seq, expected=seen)
        await _press(bot, game, view.state, query.from_user.id, callback_data.action, seen, rng)
    except StaleState:
        await show_board(bot, game)
        await query.answer(as_plain(texts.board_outdated()), show_alert=True)
        return
    await query.answer()


async def _press(
    bot: Bot,
    game: GameInfo,
    state: savage.Encounter,
    user_id: int,
    action: str,
    seen: int,
    rng: Rng,
) -> None:
    if action == "undo":
        out = await undo_encounter(game.id, actor_id=user_id, expected_seq=seen)
        what = combat_events.undone_text(out.undone_events, out.state)
        await post_in_game(bot, game, what or setup_texts.undone(len(out.undone_events)))
        await show_board(bot, game)
        if out.caused_undone:  # the chase steps that fight step caused went with it
            await show_chase(bot, game)
        return
    command = _button_command(action, state, user_id, game.gm_id == user_id)
    await perform(bot, game, user_id, command, rng, before=state, expected_seq=seen)


def _button_command(action: str, state: savage.Encounter, user_id: int, gm: bool) -> savage.Command:
    if action == "next":
        return savage.NextTurn()
    if action == "hold":
        if state.current is None:
            raise savage.RuleError("nothing_to_interrupt")
        return savage.Hold(state.current)
    if action in ("act", "interrupt"):
        ref = _out_of_order(state, [], user_id, gm)
        cid = ref.combatant.id
        return savage.ActNow(cid) if action == "act" else savage.Interrupt(cid)
    if action == "unshake":
        character = shaken_actor(state)
        if character is None:
            raise savage.RuleError("not_shaken")
        return savage.Unshake(character.id)
    if action in ("soak", "take"):
        if state.pending is None:
            raise savage.RuleError("no_damage_pending", {"target": ""})
        who = state.pending.character
        return savage.Soak(who) if action == "soak" else savage.AcceptDamage(who)
    raise Refusal(texts.board_outdated())
