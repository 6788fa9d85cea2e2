"""Chase commands: /chase (the GM's set-up and end), /move, /back, /bump, /flee, and the
row's buttons (pending Bumps and critical failures, undo)."""

from __future__ import annotations

from typing import Any

from aiogram import Bot, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message

from bot.board_message import post_in_game
from bot.middlewares.flood import step_and_its_chat
from bot.middlewares.refusals import Refusal
from bot.render.common import as_plain, quoted
from bot.systems.savage.callbacks import ChaseCallback
from bot.systems.savage.chase.board import chase_names, render_chase, show_chase, tell_chase
from bot.systems.savage.combat import names
from bot.systems.savage.combat.board import show_board
from bot.systems.savage.combat.names import Ref
from bot.systems.savage.combat.scene import (
    Call,
    call_of,
    default_ref,
    game_by_id,
    target_ref,
    tell_followed,
)
from bot.systems.savage.combat.words import direction, number, signed_int
from bot.systems.savage.render import chase as texts
from bot.systems.savage.render.combat_turns import board_outdated
from bot.systems.savage.render.rule_errors import bad_word, chase_error_text, whose
from engine.dice.rng import Rng
from engine.savage import Character
from engine.savage import chase as ch
from engine.savage.chase.commands import ROW_SIZE
from engine.services import GameInfo
from engine.services.errors import StaleState
from engine.services.savage import (
    ChaseOutcome,
    NoChase,
    chase_command,
    current_chase,
    current_encounter,
    end_chase,
    start_chase,
    start_chase_turn,
    undo_chase,
)
from engine.services.savage.chases import controllers
from engine.words import fold as norm

MOVEMENT_WORDS = {
    "пешком": "foot",
    "бегом": "foot",
    "foot": "foot",
    "вождение": "driving",
    "машина": "driving",
    "driving": "driving",
    "верхом": "riding",
    "riding": "riding",
    "пилотирование": "piloting",
    "полёт": "piloting",
    "piloting": "piloting",
    "лодка": "boating",
    "boating": "boating",
}
MOVEMENT_SKILLS = {
    "foot": "athletics",
    "driving": "driving",
    "riding": "riding",
    "piloting": "piloting",
    "boating": "boating",
}
ACTION_WORDS = ("действием", "действие", "action")
SUB = {
    "add": ("add", "добавить", "участник"),
    "cards": ("cards", "lay", "карты"),
    "place": ("place", "место", "поставить"),
    "mod": ("mod", "мод", "модификатор"),
    "group": ("group", "группа"),
    "ungroup": ("ungroup", "отделить"),
    "limit": ("limit", "лимит"),
    "end": ("end", "конец", "закончить", "stop", "стоп"),  # one notion: the chase ends
    "out": ("out", "выбыл", "выбыла"),
    "round": ("round", "раунд"),
    "turn": ("turn", "ход"),
    "undo": ("undo", "отмена", "отменить"),
}
_SUB_BY_WORD = {w: key for key, words in SUB.items() for w in words}


def register(router: Router) -> None:
    router.message.register(on_chase, Command("chase"))
    router.message.register(on_move, Command("move"))
    router.message.register(on_back, Command("back"))
    router.message.register(on_bump, Command("bump"))
    router.message.register(on_flee, Command("flee"))
    router.callback_query.register(on_row_button, ChaseCallback.filter())


# --- running a chase command ---------------------------------------------------------------


async def run(
    bot: Bot,
    game: GameInfo,
    user_id: int,
    command: ch.Command,
    rng: Rng,
    *,
    reply_to: Message | None = None,
    expected_seq: int | None = None,
    tell: bool = True,
) -> ChaseOutcome:
    """One chase command; the chat is told what it did and what it caused in the fight (a
    critical failure resolved with Fatigue tires the linked fight character too) — the step
    and what it tells the chat in one transaction."""
    try:
        async with step_and_its_chat(bot):
            out = await chase_command(
                game.id, command, actor_id=user_id, rng=rng, expected_seq=expected_seq
            )
            if tell:
                await tell_chase(bot, game, out.events, reply_to=reply_to, view=out.view(game.id))
                await tell_followed(bot, game, out.followed)
    except ch.ChaseError as error:  # the chase's own refusal: nothing was written
        raise Refusal(await named_error(game, error)) from None
    return out


async def named_error(game: GameInfo, error: ch.ChaseError) -> str:
    """The refusal with participants' names instead of their ids. «Not taking a turn» for a
    participant whose combatant acts in the fight right now says what the GM does."""
    lookup = await current_encounter(game.id)
    known: dict[str, str] = {}
    if lookup is not None:
        known = {c.id: c.name for c in lookup.state.characters}
        known.update({c.id: c.name for c in lookup.state.combatants})

    def name(some_id: object) -> str:
        return quoted(known.get(str(some_id), str(some_id)))

    pid = str(error.params.get("participant", ""))
    acting = lookup.state.acting if lookup is not None else None
    ids = {acting.id, *(m.id for m in acting.members)} if acting is not None else set()
    if error.code == "no_turn" and pid in ids:
        return texts.chase_no_turn(name(pid))
    return chase_error_text(error.code, error.params, name)


async def tell(
    bot: Bot, game: GameInfo, events: tuple[Any, ...], *, reply_to: Message | None = None
) -> None:
    await tell_chase(bot, game, events, reply_to=reply_to)


async def chase_state(game: GameInfo) -> ch.ChaseState:
    view = await current_chase(game.id)
    if view is None:
        raise NoChase(game_id=game.id)
    state: ch.ChaseState = view.state  # the scene service's views are of any system
    return state


def participant_of(state: ch.ChaseState, ref: Ref) -> str:
    """The chase participant a name means: the character, or a group's leader."""
    ids = [ref.character.id] if ref.character is not None else []
    ids += [m.id for m in ref.combatant.members] + [ref.combatant.id]
    for pid in ids:
        p = state.find(pid)
        if p is not None and (ref.character is not None or p.leader is None):
            return p.id
    raise ch.ChaseError("unknown_participant", participant=ref.name)


def mover(call: Call, state: ch.ChaseState) -> tuple[str, list[str]]:
    ref, rest = names.take(call.state, call.words)
    if ref is None:
        ref = default_ref(call.state, call.user_id, call.gm)
        if ref is None:
            raise Refusal(whose())
    return participant_of(state, ref), rest


# --- /chase -----------------------------------------------------------------------------------


async def on_chase(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)
    view = await current_chase(call.game.id)
    first = norm(call.words[0]) if call.words else ""
    if view is not None and view.state.ended is not None and first not in SUB["undo"]:
        # over (a Flee, a side out, the round limit): close it, and a new /chase starts anew
        await end_chase(call.game.id, actor_id=call.user_id)
        if first in _SUB_BY_WORD and _SUB_BY_WORD[first] == "end":
            await message.reply(texts.chase_closed())
            return
        view = None
    if view is None:
        cards = number(first) if first else ROW_SIZE
        if cards is None:
            raise Refusal(texts.chase_usage())
        out = await start_chase(call.game.id, actor_id=call.user_id, rng=rng, cards=cards)
        name = await chase_names(call.game)
        await message.reply(texts.chase_events_text(out.events, name) + "\n" + texts.chase_usage())
        await show_chase(bot, call.game, new=True)
        return
    sub = _SUB_BY_WORD.get(first)
    if sub is None:
        if first:
            raise Refusal(texts.chase_usage())
        await show_chase(bot, call.game, new=True)
        return
    call.words = call.words[1:]
    await SUBCOMMANDS[sub](call, view.state, bot, rng)


async def _add(call: Call, state: ch.ChaseState, bot: Bot, rng: Rng) -> None:
    ref, rest = target_ref(call.state, call.words)
    if len(rest) < 2 or number(rest[1]) is None:
        raise Refusal(texts.chase_usage())
    side, position = rest[0], (number(rest[1]) or 1) - 1
    movement, skill, die = "foot", None, None
    for word in rest[2:]:
        w = norm(word)
        if w in MOVEMENT_WORDS:
            movement = MOVEMENT_WORDS[w]
        elif w[:1] in "dдк" and number(w[1:]) is not None:
            die = number(w[1:])
        else:
            movement, skill = "special", w
    members = [ref.character] if ref.character is not None else list(ref.combatant.active_members)
    leader: str | None = None
    outs = []
    for member in members:  # a group is added member by member, and told in one message
        cmd = _participant(member, side, position, movement, skill, die, leader)
        outs.append(await run(bot, call.game, call.user_id, cmd, rng, tell=False))
        leader = leader or member.id
    events = tuple(e for out in outs for e in out.events)
    view = outs[-1].view(call.game.id)
    await tell_chase(bot, call.game, events, reply_to=call.message, view=view)
    for out in outs:
        await tell_followed(bot, call.game, out.followed)


def _participant(
    c: Character,
    side: str,
    position: int,
    movement: str,
    skill: str | None,
    die: int | None,
    leader: str | None,
) -> ch.AddParticipant:
    trait = skill or MOVEMENT_SKILLS.get(movement, "athletics")
    own = c.die(trait)
    return ch.AddParticipant(
        c.id,
        side,
        None if leader else position,
        movement=movement,
        die=die or (own.sides if own else 4),
        die_bonus=own.bonus if own and not die else 0,
        skill=skill,
        wild_card=c.wild,
        unskilled=own is None and die is None,
        leader=leader,
    )


async def _place(call: Call, state: ch.ChaseState, bot: Bot, rng: Rng) -> None:
    ref, rest = target_ref(call.state, call.words)
    card = number(rest[0]) if len(rest) == 1 else None
    if card is None:
        raise Refusal(texts.chase_usage())
    cmd = ch.PlaceParticipant(participant_of(state, ref), card - 1)
    await run(bot, call.game, call.user_id, cmd, rng, reply_to=call.message)


async def _mod(call: Call, state: ch.ChaseState, bot: Bot, rng: Rng) -> None:
    ref, rest = target_ref(call.state, call.words)
    value = signed_int(rest[0]) if len(rest) == 1 else None
    if value is None:
        raise Refusal(texts.chase_usage())
    cmd = ch.SetModifier(participant_of(state, ref), value)
    await run(bot, call.game, call.user_id, cmd, rng, reply_to=call.message)


async def _group(call: Call, state: ch.ChaseState, bot: Bot, rng: Rng) -> None:
    member, rest = target_ref(call.state, call.words)
    leader, _ = target_ref(call.state, rest)
    cmd = ch.JoinGroup(participant_of(state, member), participant_of(state, leader))
    await run(bot, call.game, call.user_id, cmd, rng, reply_to=call.message)


async def _ungroup(call: Call, state: ch.ChaseState, bot: Bot, rng: Rng) -> None:
    member, _ = target_ref(call.state, call.words)
    cmd = ch.LeaveGroup(participant_of(state, member))
    await run(bot, call.game, call.user_id, cmd, rng, reply_to=call.message)


async def _limit(call: Call, state: ch.ChaseState, bot: Bot, rng: Rng) -> None:
    limit = number(call.words[0]) if call.words else None
    await run(
        bot, call.game, call.user_id, ch.SetRoundLimit(limit or None), rng, reply_to=call.message
    )


async def _out(call: Call, state: ch.ChaseState, bot: Bot, rng: Rng) -> None:
    ref, _ = target_ref(call.state, call.words)
    cmd = ch.TakeOutOfAction(participant_of(state, ref))
    await run(bot, call.game, call.user_id, cmd, rng, reply_to=call.message)


async def _round(call: Call, state: ch.ChaseState, bot: Bot, rng: Rng) -> None:
    await run(bot, call.game, call.user_id, ch.StartRound(), rng, reply_to=call.message)


async def _turn(call: Call, state: ch.ChaseState, bot: Bot, rng: Rng) -> None:
    out = await start_chase_turn(call.game.id, actor_id=call.user_id, rng=rng)
    await tell(bot, call.game, out.events, reply_to=call.message)


async def _lay(call: Call, state: ch.ChaseState, bot: Bot, rng: Rng) -> None:
    count = number(call.words[0]) if call.words else None
    if count is None:
        raise Refusal(texts.chase_usage())
    at = "rear" if any(norm(w) in ("сзади", "rear", "назад") for w in call.words[1:]) else "front"
    await run(bot, call.game, call.user_id, ch.LayCards(count, at), rng, reply_to=call.message)


async def _undo(call: Call, state: ch.ChaseState, bot: Bot, rng: Rng) -> None:
    out = await undo_chase(call.game.id, actor_id=call.user_id)
    await call.message.reply(texts.chase_undone())
    await show_chase(bot, call.game)
    if out.caused_undone:  # the fight steps that chase step caused went with it
        await show_board(bot, call.game)


async def _end(call: Call, state: ch.ChaseState, bot: Bot, rng: Rng) -> None:
    """`/chase end` (or stop): the GM ends the chase and closes it; with a side's name, that
    side stops (seed 001, line 47 «одна сторона останавливается»)."""
    if state.ended is None:
        command = ch.StopSide(call.words[0]) if call.words else ch.EndChase()
        await run(bot, call.game, call.user_id, command, rng, reply_to=call.message)
    view = await end_chase(call.game.id, actor_id=call.user_id)
    await render_chase(bot, call.game, view)
    await call.message.reply(texts.chase_closed())


SUBCOMMANDS = {
    "add": _add,
    "cards": _lay,
    "place": _place,
    "mod": _mod,
    "group": _group,
    "ungroup": _ungroup,
    "limit": _limit,
    "out": _out,
    "round": _round,
    "turn": _turn,
    "undo": _undo,
    "end": _end,
}


# --- players' moves ---------------------------------------------------------------------------


async def on_move(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)
    state = await chase_state(call.game)
    pid, rest = mover(call, state)
    way, as_action, modifier = None, False, 0
    for word in rest:
        w = norm(word)
        if direction(w) is not None and way is None:
            way = direction(w)
        elif w in ACTION_WORDS:
            as_action = True
        elif signed_int(w) is not None:
            modifier = signed_int(w) or 0
        else:
            raise Refusal(bad_word(word))
    if way is None:
        raise Refusal(texts.chase_usage())
    cmd = ch.ChangePosition(pid, way, as_action=as_action, modifier=modifier)
    await run(bot, call.game, call.user_id, cmd, rng, reply_to=message)


async def on_back(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)
    state = await chase_state(call.game)
    pid, rest = mover(call, state)
    cards = number(rest[0]) if rest else 1
    if cards is None:
        raise Refusal(bad_word(rest[0]))
    await run(bot, call.game, call.user_id, ch.DropBack(pid, cards), rng, reply_to=message)


async def on_bump(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)
    state = await chase_state(call.game)
    first, rest = names.take(call.state, call.words)
    second, after = names.take(call.state, rest)
    if first is None:
        raise Refusal(texts.chase_usage())
    if second is None:
        actor = default_ref(call.state, call.user_id, call.gm)
        if actor is None:
            raise Refusal(whose())
        first, second, after = actor, first, rest
    way = direction(after[0]) if len(after) == 1 else None
    if way is None:
        raise Refusal(texts.chase_usage())
    cmd = ch.Bump(participant_of(state, first), participant_of(state, second), way)
    await run(bot, call.game, call.user_id, cmd, rng, reply_to=message)


async def on_flee(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)
    state = await chase_state(call.game)
    pid, rest = mover(call, state)
    modifier = signed_int(rest[0]) if rest else 0
    if modifier is None:
        raise Refusal(bad_word(rest[0]))
    await run(bot, call.game, call.user_id, ch.Flee(pid, modifier), rng, reply_to=message)


# --- the row's buttons ------------------------------------------------------------------------


async def on_row_button(
    query: CallbackQuery, callback_data: ChaseCallback, bot: Bot, rng: Rng
) -> None:
    game = await game_by_id(callback_data.game_id)
    view = await current_chase(game.id)
    if view is None:
        raise NoChase(game_id=game.id)
    seen = callback_data.seq
    try:
        if view.seq != seen:
            raise StaleState(stream=view.stream, seq=view.seq, expected=seen)
        await _press(bot, game, view.state, query.from_user.id, callback_data, rng)
    except StaleState:  # the row changed since it was shown (checked again in the write)
        await show_chase(bot, game)
        await query.answer(as_plain(board_outdated()), show_alert=True)
        return
    await query.answer()


async def _press(
    bot: Bot,
    game: GameInfo,
    state: ch.ChaseState,
    user_id: int,
    callback_data: ChaseCallback,
    rng: Rng,
) -> None:
    seen = callback_data.seq
    if callback_data.action == "undo":
        out = await undo_chase(game.id, actor_id=user_id, expected_seq=seen)
        await post_in_game(bot, game, texts.chase_undone())
        await show_chase(bot, game)
        if out.caused_undone:
            await show_board(bot, game)
    elif callback_data.action == "crit":
        pending, _, choice = callback_data.arg.partition(texts.ARG_SEP)
        command = ch.ResolveCriticalFailure(pending, choice)
        await run(bot, game, user_id, command, rng, expected_seq=seen)
    elif callback_data.action == "bump":
        pending, way, cards = callback_data.arg.split(texts.ARG_SEP)
        chooser = await _chooser(game, state, pending, user_id)
        cmd = ch.ResolveBump(pending, int(way), int(cards), chooser)
        await run(bot, game, user_id, cmd, rng, expected_seq=seen)


async def _chooser(game: GameInfo, state: ch.ChaseState, pending: str, user_id: int) -> str | None:
    """The GM chooses as None; a player as a participant they control on the side that
    chooses (the opposing side for a Bump, the participant itself for a shift)."""
    if game.gm_id == user_id:
        return None
    found = state.pending_by_id(pending)
    if found is None:
        raise ch.ChaseError("unknown_pending", pending=pending)
    target = state.participant(found.target)
    for p in state.participants:
        if not p.active:
            continue
        fits = p.id == target.id if found.kind == "shift" else p.side != target.side
        if fits and user_id in await controllers(game.id, p.id):
            return p.id
    raise ch.ChaseError("not_opposing_side", chooser=user_id, target=target.id)
