"""Setting up a fight: /fight (start, show, end), /add, /remove, /char, /chars, /deal,
/undo."""

from __future__ import annotations

import json
import re

from aiogram import Bot, Router
from aiogram.enums import ChatType
from aiogram.exceptions import TelegramForbiddenError
from aiogram.filters import Command, CommandObject
from aiogram.types import (
    BufferedInputFile,
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
)

from bot.board_pin import tell_not_pinned
from bot.chat_rights import ChatRights
from bot.middlewares.refusals import Refusal
from bot.parsing import replied_to
from bot.render.common import as_plain
from bot.systems.savage.callbacks import BoardDownCallback, RemoveGroupCallback
from bot.systems.savage.chase.board import show_chase
from bot.systems.savage.combat import names, several
from bot.systems.savage.combat.board import render_board, show_board
from bot.systems.savage.combat.scene import Call, call_of, game_by_id, game_here, perform, report
from bot.systems.savage.render import combat_events
from bot.systems.savage.render import combat_setup as texts
from bot.systems.savage.render.combat_turns import board_outdated
from bot.systems.savage.render.rule_errors import unknown_name, whose
from engine import savage
from engine.dice.rng import Rng
from engine.services import GameInfo, NoCharacter
from engine.services.errors import StaleState
from engine.services.library import slug
from engine.services.savage import (
    add_to_encounter,
    current_chase,
    current_encounter,
    end_encounter,
    get_character,
    list_characters,
    save_character,
    start_encounter,
    undo_encounter,
)
from engine.services.savage.characters import CharacterRecord
from engine.words import fold as norm

END_WORDS = ("конец", "end", "стоп", "stop", "закончить", "завершить")
JSON_WORDS = ("json", "джейсон")
JSON_INLINE_MAX = 3500  # longer JSON goes as a .json document
_BLOCK = re.compile(r"(?i)(?:^|[\s(,;:])[dдк]\d|\n")


def register(router: Router) -> None:
    router.message.register(on_fight, Command("fight"))
    router.message.register(on_board, Command("board"))
    router.message.register(on_add, Command("add"))
    router.message.register(on_remove, Command("remove"))
    router.message.register(on_char, Command("char"))
    router.message.register(on_chars, Command("chars"))
    router.message.register(on_deal, Command("deal"))
    router.message.register(on_undo, Command("undo"))
    router.callback_query.register(on_remove_group, RemoveGroupCallback.filter())
    router.callback_query.register(on_board_down, BoardDownCallback.filter())


async def on_fight(
    message: Message, command: CommandObject, bot: Bot, chat_rights: ChatRights
) -> None:
    call = await call_of(message, command.args, encounter=False)
    if norm(call.args) in END_WORDS:
        view = await end_encounter(call.game.id, actor_id=call.user_id)
        await render_board(bot, call.game, view)
        await message.reply(texts.fight_ended(view.state.round))
        return
    if call.view is not None:  # already running: post the board again below
        await show_board(bot, call.game, new=True)
        return
    await start_encounter(call.game.id, actor_id=call.user_id)
    await message.reply(texts.fight_started())
    await show_board(
        bot, call.game, new=True, not_pinned=tell_not_pinned(bot, call.game, chat_rights)
    )


async def on_board(message: Message, bot: Bot, chat_rights: ChatRights) -> None:
    """/board: the live boards posted again at the bottom of the chat, the old copies
    retired; the fight's pinned (bot/board_pin.py)."""
    await repost_boards(bot, await game_here(message), chat_rights)


async def on_board_down(
    query: CallbackQuery, callback_data: BoardDownCallback, bot: Bot, chat_rights: ChatRights
) -> None:
    """«⬇️ Доска вниз» under a turn's message: what /board does."""
    await repost_boards(bot, await game_by_id(callback_data.g), chat_rights)
    await query.answer()


async def repost_boards(bot: Bot, game: GameInfo, chat_rights: ChatRights) -> None:
    view = await current_encounter(game.id)
    chase = await current_chase(game.id)
    fight = view is not None and not view.closed
    if not fight and (chase is None or chase.closed):
        raise Refusal(texts.no_board())
    if chase is not None and not chase.closed:
        await show_chase(bot, game, new=True)
    if fight:
        not_pinned = tell_not_pinned(bot, game, chat_rights)
        await show_board(bot, game, new=True, not_pinned=not_pinned)


async def on_add(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)
    if not call.args:
        raise Refusal(texts.add_usage())
    if _BLOCK.search(call.args):
        owner = _replied_user(message)
        record = await save_character(
            call.game.id, call.args, actor_id=call.user_id, owner_id=owner
        )
        name: str | int = record.id
        count = None
    elif len(parts := several.split_names(call.args)) > 1:
        await several.add_several(bot, call, parts, rng)
        return
    else:
        name, count = several.name_and_count(call.args)
        try:
            await get_character(call.game.id, name)  # no_character before anything else
        except NoCharacter:
            hint = texts.several_names_hint(name)
            if hint is None:
                raise
            raise Refusal(hint) from None
    out = await add_to_encounter(call.game.id, name, actor_id=call.user_id, count=count, rng=rng)
    await report(bot, call.game, out, reply_to=message)


def _replied_user(message: Message) -> int | None:
    reply = replied_to(message)
    if reply is None or reply.from_user is None or reply.from_user.is_bot:
        return None
    return reply.from_user.id


async def on_remove(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    """One fighter by its whole name (a member of a group leaves alone); a whole group only
    after the GM confirms it; an unknown name removes nothing."""
    call = await call_of(message, command.args)
    if not call.args:
        raise Refusal(whose())
    ref = names.exact(call.state, call.args)
    if ref is None:
        raise Refusal(unknown_name(call.args))
    combatant = ref.combatant
    if ref.character is None and len(combatant.members) > 1:
        if not call.gm:
            raise savage.RuleError("gm_only")
        assert call.view is not None
        markup = remove_group_keyboard(call.game.id, call.view.seq, combatant.id)
        await message.reply(texts.confirm_remove_group(combatant), reply_markup=markup)
        return
    target = ref.character.id if ref.character is not None else combatant.id
    await call.run(bot, savage.RemoveCombatant(target), rng)


def remove_group_keyboard(game_id: int, seq: int, combatant: str) -> InlineKeyboardMarkup:
    def button(text: str, confirm: bool) -> InlineKeyboardButton:
        data = RemoveGroupCallback(game_id=game_id, seq=seq, combatant=combatant, confirm=confirm)
        return InlineKeyboardButton(text=text, callback_data=data.pack())

    row = [button(texts.remove_group_yes(), True), button(texts.remove_group_no(), False)]
    return InlineKeyboardMarkup(inline_keyboard=[row])


async def on_remove_group(
    query: CallbackQuery, callback_data: RemoveGroupCallback, bot: Bot, rng: Rng
) -> None:
    game = await game_by_id(callback_data.game_id)
    if query.from_user.id != game.gm_id:
        raise savage.RuleError("gm_only")
    if isinstance(query.message, Message):
        await query.message.edit_reply_markup(reply_markup=None)
    if not callback_data.confirm:
        await query.answer(as_plain(texts.remove_group_cancelled()))
        return
    command = savage.RemoveCombatant(callback_data.combatant)
    try:
        await perform(bot, game, query.from_user.id, command, rng, expected_seq=callback_data.seq)
    except StaleState:  # the fight moved on since the question: ask again
        await query.answer(as_plain(board_outdated()), show_alert=True)
        return
    await query.answer()


async def on_deal(message: Message, command: CommandObject, bot: Bot, rng: Rng) -> None:
    call = await call_of(message, command.args)
    await call.run(bot, savage.DealRound(), rng)


async def on_undo(message: Message, command: CommandObject, bot: Bot) -> None:
    call = await call_of(message, command.args)
    out = await undo_encounter(call.game.id, actor_id=call.user_id)
    what = combat_events.undone_text(out.undone_events, out.state)
    await message.reply(what or texts.undone(len(out.undone_events)))
    await show_board(bot, call.game)
    if out.caused_undone:  # the chase steps that fight step caused went with it
        await show_chase(bot, call.game)


async def on_char(message: Message, command: CommandObject, bot: Bot) -> None:
    await char_command(bot, await call_of(message, command.args, encounter=False))


async def char_command(bot: Bot, call: Call) -> None:
    """/char in the group or, for the game chosen there, in the private chat with the bot
    (bot/systems/savage/combat/private.py): save a block, or send a saved sheet."""
    message = call.message
    private = message.chat.type == ChatType.PRIVATE
    if not call.args:
        raise Refusal(texts.char_usage())
    if call.args.startswith("{") or _BLOCK.search(call.args):  # JSON or a text block
        record = await save_character(call.game.id, call.args, actor_id=call.user_id)
        if private or not record.template:
            await message.reply(texts.saved(record, private=private))
            return
        # an NPC's stat block stays out of the group: the GM gets it privately
        try:
            await bot.send_message(call.user_id, texts.saved(record, private=True))
        except TelegramForbiddenError:
            await message.reply(texts.template_saved(record, sent=False))
            return
        await message.reply(texts.template_saved(record, sent=True))
        return
    name, as_json = call.args, False
    if len(call.words) > 1 and norm(call.words[-1]) in JSON_WORDS:
        name, as_json = " ".join(call.words[:-1]), True
    record = await get_character(call.game.id, name)
    if record.template and not call.gm:  # NPC templates are the GM's secret
        raise NoCharacter(name=name)
    # A sheet is the GM's and its owner's (the Mini App answers others 403): never posted in
    # a group, sent to the asker's private chat.
    if not call.gm and record.owner_id != call.user_id:
        raise Refusal(texts.sheet_not_yours(record))
    try:
        await _send_sheet(bot, call.user_id, record, as_json)
    except TelegramForbiddenError:
        raise Refusal(texts.sheet_needs_private_chat()) from None
    if not private:
        await message.reply(texts.sheet_sent_privately(record))


async def _send_sheet(bot: Bot, chat_id: int, record: CharacterRecord, as_json: bool) -> None:
    if not as_json:
        await bot.send_message(chat_id, texts.sheet(record))
        return
    data = record.character.to_dict()
    if record.count > 1:
        data["count"] = record.count  # a group of Extras, as save_character reads it
    payload = json.dumps(data, ensure_ascii=False)
    if len(payload) <= JSON_INLINE_MAX:
        await bot.send_message(chat_id, texts.sheet_json(payload))
        return
    document = BufferedInputFile(payload.encode("utf-8"), filename=f"{slug(record.name)}.json")
    await bot.send_document(chat_id, document, caption=texts.json_caption(record))


async def on_chars(message: Message, command: CommandObject) -> None:
    await chars_command(await call_of(message, command.args, encounter=False))


async def chars_command(call: Call) -> None:
    message = call.message
    records = await list_characters(call.game.id, viewer_id=call.user_id)
    await message.reply(texts.library(records))
