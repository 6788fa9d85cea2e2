"""Turns by tapping (issue 12, item 2): the turn menu's buttons (render/turn_menu.py) and
«Поглотить» / «Принять» under an attack's result. A step of the menu edits the buttons of
the message it is on; the last one runs the command as the presser, as a typed command
would (`perform`). Only the character's owner presses (the GM for NPCs and each member of a
group of Extras); anyone else gets a short alert."""

from __future__ import annotations

from aiogram import Bot, Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.middlewares.refusals import Refusal
from bot.render.common import as_plain
from bot.systems.savage.callbacks import DamageCallback, TurnCallback
from bot.systems.savage.chase.commands import run as chase_run
from bot.systems.savage.combat.board import show_board
from bot.systems.savage.combat.scene import encounter_of, game_by_id, game_here, perform
from bot.systems.savage.render import combat_turns as texts
from bot.systems.savage.render.rule_errors import combat_error_text
from bot.systems.savage.render.turn_menu import (
    Menu,
    attack_skills,
    member_rows,
    traits_of,
    turn_rows,
)
from engine import savage
from engine.dice.rng import Rng
from engine.savage import chase as ch
from engine.services import GameInfo
from engine.services.errors import StaleState
from engine.services.savage import current_chase, set_quiet_mode

Rows = list[list[InlineKeyboardButton]]
QUIET_ON = ("вкл", "да", "on")
QUIET_OFF = ("выкл", "нет", "off")
SUBMENUS = ("m", "g", "a", "aw", "t", "s", "sk", "x", "xk")
CHASE_STEPS = {"cf": 1, "cb": -1, "cl": 0}  # Change Position forward, back; Flee


def register(router: Router) -> None:
    router.message.register(on_quiet, Command("quiet"))
    router.callback_query.register(on_tap, TurnCallback.filter())
    router.callback_query.register(on_damage, DamageCallback.filter())


async def on_tap(query: CallbackQuery, callback_data: TurnCallback, bot: Bot, rng: Rng) -> None:
    data = callback_data
    game = await game_by_id(data.g)
    state = (await encounter_of(game)).state
    if data.r != state.round or data.c >= len(state.characters):
        await _alert(query, texts.turn_over())
        return
    me = state.characters[data.c]
    combatant = state.combatant_of(me.id)
    if state.current != combatant.id:
        await _alert(query, texts.turn_over())
        return
    user = query.from_user.id
    if not _may_press(game, me, user) and not (data.k == "n" and user == game.gm_id):
        await _alert(query, combat_error_text("not_your_character", {}))
        return
    chase_view = await current_chase(game.id)
    chase = chase_view.state if chase_view is not None and not chase_view.closed else None
    menu = Menu(state, game.id, data.c, board=data.b, chase=chase)
    if data.k in CHASE_STEPS:
        move = CHASE_STEPS[data.k]
        lead = combatant.members[0].id if len(combatant.members) > 1 else me.id
        command = ch.Flee(lead) if move == 0 else ch.ChangePosition(lead, move)
        await chase_run(bot, game, user, command, rng)
        await query.answer()
        return
    if data.k in SUBMENUS:
        await _show(query, bot, game, _submenu(menu, state, combatant, data))
        return
    await perform(bot, game, user, _command(state, me, combatant, data), rng, before=state)
    await query.answer()
    if data.k in ("A", "T", "S", "X") and not data.b:  # back to the menu for the next action
        after = (await encounter_of(game)).state
        if after.current == combatant.id:
            await _edit(query, turn_rows(after, game.id, board=False, chase=chase))


async def on_quiet(message: Message, command: CommandObject) -> None:
    """«/quiet вкл|выкл» (the GM): the chat keeps only the board and the results."""
    game = await game_here(message)
    word = (command.args or "").strip().lower()
    if word not in QUIET_ON + QUIET_OFF:
        raise Refusal(texts.quiet_usage())
    assert message.from_user is not None
    on = word in QUIET_ON
    await set_quiet_mode(game.id, on, actor_id=message.from_user.id)
    await message.reply(texts.quiet_on() if on else texts.quiet_off())


def _may_press(game: GameInfo, me: savage.Character, user: int) -> bool:
    return user == me.owner if me.owner is not None else user == game.gm_id


def _submenu(
    menu: Menu, state: savage.Encounter, combatant: savage.Combatant, data: TurnCallback
) -> Rows:
    match data.k:
        case "m" if len(combatant.members) > 1:
            return member_rows(state, menu.game_id, combatant, board=menu.board, chase=menu.chase)
        case "m" | "g":
            return menu.main()
        case "a":
            return menu.targets("aw", allies=False)
        case "aw":
            return menu.weapons(data.t)
        case "t":
            return menu.traits("T")
        case "s":
            return menu.targets("sk", allies=True)
        case "sk":
            return menu.traits("S", target=data.t)
        case _:  # "x" then "xk": a Test's target, then its skill
            return menu.targets("xk", allies=False) if data.k == "x" else menu.traits("X", data.t)


def _command(
    state: savage.Encounter, me: savage.Character, combatant: savage.Combatant, data: TurnCallback
) -> savage.Command:
    def other() -> str:
        return state.characters[data.t].id

    match data.k:
        case "A":
            return savage.Attack(me.id, other(), skill=attack_skills(me)[data.w])
        case "T":
            return savage.TraitRoll(me.id, traits_of(me)[data.w])
        case "S":
            return savage.Support(me.id, other(), traits_of(me)[data.w])
        case "X":
            return savage.Test(me.id, other(), traits_of(me)[data.w])
        case "d":
            return savage.Defend(me.id)
        case "h":
            return savage.Hold(combatant.id)
        case "u":
            return savage.Unshake(me.id)
        case _:
            return savage.NextTurn()


async def _show(query: CallbackQuery, bot: Bot, game: GameInfo, rows: Rows) -> None:
    data = TurnCallback.unpack(query.data or "")
    if data.b and data.k == "m":  # on the board: its own buttons back
        await show_board(bot, game)
    else:
        await _edit(query, rows)
    await query.answer()


async def _edit(query: CallbackQuery, rows: Rows) -> None:
    if not isinstance(query.message, Message):
        return
    try:
        await query.message.edit_reply_markup(
            reply_markup=InlineKeyboardMarkup(inline_keyboard=rows)
        )
    except TelegramBadRequest as error:  # the same buttons pressed twice
        if "not modified" not in error.message:
            raise


async def _alert(query: CallbackQuery, text: str) -> None:
    await query.answer(as_plain(text)[:200], show_alert=True)


# --- damage waiting under the attack's result -------------------------------------------------


async def on_damage(
    query: CallbackQuery, callback_data: DamageCallback, bot: Bot, rng: Rng
) -> None:
    """Soak or take the Wounds the attack left: the answer is added to the attack's message
    (no new message), its buttons go; a press after that damage was resolved is refused."""
    game = await game_by_id(callback_data.g)
    view = await encounter_of(game)
    pending = view.state.pending
    if pending is None or view.seq != callback_data.seq:
        await _alert(query, texts.damage_resolved())
        return
    who = pending.character
    command = savage.Soak(who) if callback_data.soak else savage.AcceptDamage(who)
    try:
        await perform(
            bot,
            game,
            query.from_user.id,
            command,
            rng,
            before=view.state,
            expected_seq=view.seq,
            append_to=query.message if isinstance(query.message, Message) else None,
        )
    except StaleState:
        await _alert(query, texts.damage_resolved())
        return
    await query.answer()
