"""The fight in chat: /fight, /add, /init, /delay, /yield, /done, /fulldef, /actions,
/attack, /ambush, /publish, /drop, /undo and the board's buttons; the GM's private review
of a proposal (its buttons)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiogram import Bot, Router, html
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message
from aiogram.utils.i18n import gettext as _

from bot.board_message import post_in_game
from bot.board_pin import tell_not_pinned
from bot.chat_rights import ChatRights
from bot.filters import IN_GROUPS
from bot.middlewares.flood import step_and_its_chat
from bot.middlewares.refusals import Refusal, Refusals
from bot.render import texts
from bot.render.common import quoted
from bot.render.keyboards import keyboard
from bot.systems.call import Call as SceneCall
from bot.systems.filters import game_of
from bot.systems.storyteller import names, picker, render
from bot.systems.storyteller.board import (
    render_board,
    show_board,
    tell,
    tell_dropped,
    tell_undone,
)
from bot.systems.storyteller.callbacks import (
    AddNamedCallback,
    AttackCallback,
    DefendCallback,
    FightCallback,
    ReviewCallback,
)
from bot.systems.storyteller.words import END_WORDS, attack_words
from engine.dice.rng import Rng
from engine.name_match import match
from engine.services import GameInfo, NoCharacter, NoGame, get_game
from engine.services.storyteller import (
    FIGHT,
    FightView,
    NoFight,
    add_to_fight,
    current_fight,
    end_fight,
    fight_command,
    list_characters,
    start_fight,
    undo_fight,
)
from engine.storyteller import commands as cmd
from engine.storyteller.character import FIST
from engine.storyteller.errors import StorytellerError
from engine.storyteller.fight import Fight, Fighter

# a chat command's handler, as aiogram calls it with the workflow's data
Handler = Callable[[Message, CommandObject, Bot, Rng], Awaitable[None]]


def refusals() -> Refusals:
    """The engine's refusals and `Refusal`s in the user's words: a reply, or an alert."""
    return Refusals(
        {
            picker.Refused: lambda error: error.text,
            StorytellerError: lambda error: (
                texts.error_text(error) or _("This cannot be done now.")
            ),
        }
    )


def make_router() -> Router:
    router = Router(name="storyteller")
    router.message.filter(IN_GROUPS)
    router.message.middleware(refusals())
    router.callback_query.middleware(refusals())
    router.message.register(on_fight, Command("fight"))
    router.message.register(on_add, Command("add"))
    router.message.register(on_init, Command("init"))
    for word, make in SIMPLE.items():
        router.message.register(_simple(make), Command(word))
    router.message.register(on_actions, Command("actions"))
    router.message.register(on_attack, Command("attack"))
    router.message.register(on_ambush, Command("ambush"))
    router.message.register(on_publish, Command("publish"))
    router.message.register(on_drop, Command("drop"))
    router.message.register(on_undo, Command("undo"))
    router.callback_query.register(on_board_button, FightCallback.filter())
    router.callback_query.register(on_review_button, ReviewCallback.filter())
    router.callback_query.register(on_add_named, AddNamedCallback.filter())
    router.callback_query.register(picker.on_picker_button, AttackCallback.filter())
    router.callback_query.register(picker.on_defend_button, DefendCallback.filter())
    return router


# --- a command in chat -----------------------------------------------------------------------


class Call(SceneCall[Fight]):
    kind = FIGHT.name

    async def run(self, bot: Bot, command: cmd.Command, rng: Rng) -> None:
        """The step and what it tells the chat, in one transaction."""
        async with step_and_its_chat(bot):
            out = await fight_command(self.game.id, command, actor_id=self.user_id, rng=rng)
            await tell(
                bot,
                self.game,
                out.events,
                out.view(self.game.id),
                before=out.before,
                reply_to=self.message,
            )


async def call_of(message: Message, args: str | None) -> Call:
    game = await game_of(message)
    if game is None:
        raise NoGame()
    return Call(message, game, await current_fight(game.id), args)


def unknown(word: str, fight: Fight | None = None) -> str:
    """The refusal of a name no fighter has, with the closest names when there are some."""
    text = _("There is no fighter «{name}» in the fight.").format(name=quoted(word))
    return text if fight is None else text + names.fighter_suggestion(fight, word)


def default_fighter(fight: Fight, user_id: int, gm: bool) -> Fighter | None:
    """Without a name: the user's fighter who is up (the GM: the one up), else their only one."""
    up = fight.turn.up() if fight.turn is not None else ()
    mine = [f for f in fight.fighters if (gm and f.npc) or f.owner == user_id]
    ups = [f for f in mine if f.id in up] or ([] if not gm else [fight.fighter(u) for u in up])
    if len(ups) >= 1:
        return ups[0]
    own = names.owned(fight, user_id)
    return own[0] if len(own) == 1 else None


def actor(call: Call) -> tuple[Fighter, list[str]]:
    found, rest = names.take(call.state, call.words)
    if found is not None:
        return found, rest
    fallback = default_fighter(call.state, call.user_id, call.gm)
    if fallback is None:
        raise Refusal(
            unknown(call.words[0], call.state) if call.words else _("Say whose turn it is: a name.")
        )
    return fallback, call.words


# --- set-up -----------------------------------------------------------------------------------


async def on_fight(message: Message, command: CommandObject, bot: Bot) -> None:
    call = await call_of(message, command.args)
    async with step_and_its_chat(bot):
        await _fight(message, call, bot)


async def _fight(message: Message, call: Call, bot: Bot) -> None:
    if call.words and names.norm(call.words[0]) in END_WORDS:
        view = await end_fight(call.game.id, actor_id=call.user_id)
        await render_board(bot, call.game, view)
        await message.reply(_("The fight is over."))
        return
    if call.view is not None:
        await show_board(bot, call.game, new=True)
        return
    await start_fight(call.game.id, actor_id=call.user_id)
    await message.reply(
        _("The fight begins. The GM adds fighters with /add and rolls initiative with /init.")
    )
    await show_board(bot, call.game, new=True)


async def on_add(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)
    if not call.words:
        raise Refusal(_("Write whom to add: <code>/add Bandit ×3</code> or a saved name."))
    words = call.words
    count = 1
    last = words[-1].lstrip("×xх*")
    if len(words) > 1 and last.isdigit() and words[-1][0] in "×xх*":
        count, words = int(last), words[:-1]
    said = " ".join(words)
    name = await library_name(call.game.id, said, call.user_id)
    async with step_and_its_chat(bot):
        try:
            out = await add_to_fight(
                call.game.id, name or said, actor_id=call.user_id, count=count, rng=rng
            )
        except NoCharacter:
            known = [r.name for r in await list_characters(call.game.id, viewer_id=call.user_id)]
            raise Refusal(
                no_such_character(said, known), meant_buttons(call.game.id, said, known, count)
            ) from None
        await tell(bot, call.game, out.events, out.view(call.game.id), reply_to=message)


def meant_buttons(
    game_id: int, said: str, known: list[str], count: int
) -> InlineKeyboardMarkup | None:
    """«➕ Бандит» for each name /add may have meant (one a line; a name too long for a
    button's data is left to the refusal's text)."""
    rows = []
    for name in names.offered(said, known):
        data = AddNamedCallback(game_id=game_id, name=name, count=count).pack()
        if len(data.encode()) <= 64:
            rows.append([InlineKeyboardButton(text="➕ " + name, callback_data=data)])
    return keyboard(rows) if rows else None


async def on_add_named(
    query: CallbackQuery, callback_data: AddNamedCallback, bot: Bot, rng: Rng
) -> None:
    """The name a refusal offered, tapped: added as /add with it would add it."""
    game = await get_game(callback_data.game_id)
    async with step_and_its_chat(bot):
        out = await add_to_fight(
            game.id,
            callback_data.name,
            actor_id=query.from_user.id,
            count=callback_data.count,
            rng=rng,
        )
        if isinstance(query.message, Message):
            await query.message.edit_reply_markup(reply_markup=None)
        await tell(bot, game, out.events, out.view(game.id))
    await query.answer()


async def library_name(game_id: int, said: str, user_id: int) -> str | None:
    """The saved character or template ``said`` means (any case, a Russian case form, the
    start of it, one letter off), or None (the service then checks the name as typed)."""
    records = await list_characters(game_id, viewer_id=user_id)
    return match(said, [r.name for r in records]).found


def no_such_character(said: str, known: list[str]) -> str:
    """The refusal of a name the library lacks, with the closest names it has."""
    return _("There is no character or template «{name}».").format(
        name=quoted(said)
    ) + names.suggestion(said, known)


async def on_init(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)
    await call.run(bot, cmd.StartTurn(), rng)


SIMPLE: dict[str, Callable[[str], cmd.Command]] = {
    "delay": lambda fid: cmd.Delay(fid),
    "yield": lambda fid: cmd.Yield(fid),
    "done": lambda fid: cmd.EndAction(fid),
    "fulldef": lambda fid: cmd.FullDefense(fid),
}


def _simple(make: Callable[[str], cmd.Command]) -> Handler:
    async def handler(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
        call = await call_of(message, command.args)
        fighter, _rest = actor(call)
        await call.run(bot, make(fighter.id), rng)

    return handler


async def on_actions(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)
    numbers = [w for w in call.words if w.isdigit()]
    if len(numbers) != 1:
        raise Refusal(_("Write how many actions: <code>/actions 2</code>."))
    call.words = [w for w in call.words if not w.isdigit()]
    fighter, _rest = actor(call)
    await call.run(bot, cmd.DeclareActions(fighter.id, int(numbers[0])), rng)


async def on_attack(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)
    fight = call.state
    first, rest = names.take(fight, call.words)
    second, after = names.take(fight, rest)
    if first is not None and second is not None:
        attacker, target, words = first, second, after
    elif first is not None:
        mine = default_fighter(fight, call.user_id, call.gm)
        if mine is None or mine.id == first.id:
            if rest:  # the attacker is named, the target is not a fighter
                buttons = picker.meant_targets(call.game.id, fight, first, rest[0])
                raise Refusal(unknown(rest[0], fight), buttons)
            raise Refusal(_("Write who attacks whom: <code>/attack Max Bandit 1</code>."))
        attacker, target, words = mine, first, rest
    elif call.words:  # nobody named: the target, of the user's fighter, is not a fighter
        mine = default_fighter(fight, call.user_id, call.gm)
        said = call.words[0]
        buttons = None if mine is None else picker.meant_targets(call.game.id, fight, mine, said)
        raise Refusal(unknown(said, fight), buttons)
    else:
        raise Refusal(_("Write whom to attack."))
    parsed = attack_words(words)
    try:
        weapon = weapon_named(attacker, parsed.weapon)
    except Refusal as refusal:  # the weapons it may have meant, as the picker's buttons
        said = parsed.weapon or ""
        buttons = picker.meant_weapons(call.game.id, fight, attacker, target, said)
        raise Refusal(refusal.text, buttons) from None
    attack = cmd.Attack(
        attacker.id,
        target.id,
        weapon,
        defense=parsed.defense,
        interrupt=parsed.interrupt,
        situation=parsed.situation,
    )
    await call.run(bot, attack, rng)


def weapon_named(fighter: Fighter, said: str | None) -> str | None:
    """The fighter's weapon as typed (any case, the start of it, one letter off); refused
    with the weapons it has when none fits."""
    if said is None:
        return None
    arms = [w.name for w in (*fighter.character.weapons, FIST)]
    found = match(said, arms).found
    if found is not None:
        return found
    raise Refusal(
        _("{name} has no weapon «{weapon}». Their weapons: {weapons}.").format(
            name=html.bold(html.quote(fighter.character.name)),
            weapon=quoted(said),
            weapons=", ".join(quoted(a) for a in dict.fromkeys(arms)),
        )
    )


async def on_ambush(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)
    first, rest = names.take(call.state, call.words)
    second, _rest = names.take(call.state, rest)
    if first is None or second is None:
        raise Refusal(_("Write who ambushes whom: <code>/ambush Veronica Bandit 1</code>."))
    await call.run(bot, cmd.Ambush(first.id, second.id), rng)


async def on_publish(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)
    await call.run(bot, cmd.Publish(), rng)


async def on_drop(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)

    async def no_notice() -> None:
        await message.reply(_("The attack is dropped."))

    async with step_and_its_chat(bot):
        await call.run(bot, cmd.Drop(), rng)
        await tell_dropped(bot, call.game, call.view, no_notice)  # the notice struck through


async def on_undo(message: Message, command: CommandObject, bot: Bot) -> None:
    call = await call_of(message, command.args)
    async with step_and_its_chat(bot):
        out = await undo_fight(call.game.id, actor_id=call.user_id)
        await message.reply(_("The last step is taken back."))
        await tell_undone(bot, call.game, before=call.view, undone=out.undone_events)


# --- buttons ---------------------------------------------------------------------------------


BOARD_ACTIONS: dict[str, Callable[[str], cmd.Command]] = {
    "fulldef": lambda fid: cmd.FullDefense(fid),
    "delay": lambda fid: cmd.Delay(fid),
    "yield": lambda fid: cmd.Yield(fid),
    "done": lambda fid: cmd.EndAction(fid),
}


async def on_board_button(
    query: CallbackQuery, callback_data: FightCallback, bot: Bot, rng: Rng, chat_rights: ChatRights
) -> None:
    game = await get_game(callback_data.game_id)
    user = query.from_user.id
    view = await current_fight(game.id)
    if view is None or (view.closed and callback_data.action == "board"):
        raise NoFight(game_id=game.id)
    if callback_data.action == "board":  # «⬇️ Доска вниз» under a turn's message: as /board
        not_pinned = tell_not_pinned(bot, game, chat_rights)
        async with step_and_its_chat(bot):
            await show_board(bot, game, new=True, not_pinned=not_pinned)
        await query.answer()
        return
    if callback_data.action == "undo":
        async with step_and_its_chat(bot):
            back = await undo_fight(game.id, actor_id=user, expected_seq=callback_data.seq)
            await tell_undone(bot, game, before=view, undone=back.undone_events)
        await query.answer(_("The last step is taken back."))
        return
    if callback_data.action == "init":
        command: cmd.Command = cmd.StartTurn()
    else:
        fighter = default_fighter(view.state, user, game.gm_id == user)
        if fighter is None:
            raise Refusal(_("None of your fighters is up."))
        if callback_data.action == "attack":
            await picker.open_picker(bot, game, view, fighter)
            await query.answer()
            return
        command = BOARD_ACTIONS[callback_data.action](fighter.id)
    async with step_and_its_chat(bot):  # the step and what it tells the chat, one transaction
        out = await fight_command(
            game.id, command, actor_id=user, rng=rng, expected_seq=callback_data.seq
        )
        await tell(bot, game, out.events, out.view(game.id), before=out.before)
    await query.answer()


async def on_review_button(
    query: CallbackQuery, callback_data: ReviewCallback, bot: Bot, rng: Rng
) -> None:
    game = await get_game(callback_data.game_id)
    view = await current_fight(game.id)
    if view is None or view.state.proposal is None:
        raise Refusal(_("This attack is no longer waiting for you."))
    action = callback_data.action
    if action == "publish":
        command: cmd.Command = cmd.Publish()
    elif action == "drop":
        command = cmd.Drop()
    else:
        command = cmd.Adjust(render.adjusted(view.state, action, callback_data.arg))
    async with step_and_its_chat(bot):  # the step and what it tells the chat, one transaction
        await _review(query, bot, game, view, command, action, rng, callback_data.seq)
    await query.answer()


async def _review(
    query: CallbackQuery,
    bot: Bot,
    game: GameInfo,
    view: FightView,
    command: cmd.Command,
    action: str,
    rng: Rng,
    seq: int,
) -> None:
    out = await fight_command(
        game.id, command, actor_id=query.from_user.id, rng=rng, expected_seq=seq
    )
    after = out.view(game.id)
    if isinstance(query.message, Message):
        if out.state.proposal is not None:
            await query.message.edit_text(
                render.proposal_text(out.state, game.name),
                reply_markup=render.review_keyboard(out.state, game.id, out.seq),
            )
        else:
            done = _("✅ Published.") if action == "publish" else _("✖️ Dropped.")
            shown = render.proposal_text(view.state, game.name)
            await query.message.edit_text(shown + "\n\n" + done)
    if out.state.proposal is None:
        await tell(bot, game, out.events, after, before=out.before)

        async def no_notice() -> None:
            await post_in_game(bot, game, _("The GM dropped the attack."))

        if action == "drop":
            await tell_dropped(bot, game, view, no_notice)
