"""The library in chat: /char (save a sheet block or JSON, show one, its JSON), /npc (the
GM's templates), /chars. The same handlers answer in the private chat with the bot for the
game chosen with /games (private.py); in the group an NPC template's sheet goes to the GM
privately and the group reads only its name."""

from __future__ import annotations

import json

from aiogram import Bot, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import Message
from aiogram.utils.i18n import gettext as _

from bot.filters import IN_GROUPS
from bot.middlewares.flood import step_and_its_chat
from bot.middlewares.refusals import Refusal
from bot.render import texts
from bot.render.common import quoted
from bot.systems.filters import game_of
from bot.systems.storyteller.fight import library_name, no_such_character, refusals
from bot.systems.storyteller.gm_only import to_gm
from engine.services import GameInfo, NoCharacter, NoGame
from engine.services.storyteller import CharacterRecord, get_character, list_characters
from engine.services.storyteller import save_character as save
from engine.storyteller.sheet import EXAMPLE, character_to_json

JSON_WORDS = ("json", "джейсон")


def make_router() -> Router:
    router = Router(name="storyteller_characters")
    router.message.filter(IN_GROUPS)
    router.message.middleware(refusals())
    router.message.register(on_char, Command("char"))
    router.message.register(on_npc, Command("npc"))
    router.message.register(on_chars, Command("chars"))
    return router


def sheet_block(record: CharacterRecord) -> str:
    return f"<pre>{quoted(record.sheet)}</pre>"


def saved_text(record: CharacterRecord) -> str:
    head = (
        _("NPC template saved: <b>{name}</b>") if record.template else _("Saved: <b>{name}</b>")
    ).format(name=quoted(record.name))
    lines = [head, sheet_block(record)]
    lines += ["⚠️ " + texts.text(w) for w in record.warnings]
    return "\n".join(lines)


async def _game(message: Message, game: GameInfo | None) -> GameInfo:
    """The game the command is for: the chat's, or in the private chat the one chosen with
    /games (the private router's middleware puts it in ``game``)."""
    game = game or await game_of(message)
    if game is None:
        raise NoGame()
    return game


def _in_group(message: Message) -> bool:
    return message.chat.type != "private"


async def _save(message: Message, bot: Bot, game: GameInfo, args: str, *, template: bool) -> None:
    assert message.from_user is not None
    async with step_and_its_chat(bot):  # the sheet and its answer, one transaction
        record = await save(game.id, args, actor_id=message.from_user.id, template=template)
        if record.template and _in_group(message):
            public = _("NPC template saved: <b>{name}</b>").format(name=quoted(record.name))
            await to_gm(bot, message, game, saved_text(record), public)
            return
        await message.reply(saved_text(record))


async def on_char(
    message: Message, command: CommandObject, bot: Bot, game: GameInfo | None = None
) -> None:
    args = (command.args or "").strip()
    game = await _game(message, game)
    assert message.from_user is not None
    if not args:
        await message.reply(
            _("Send your sheet like this (paste it and change it):")
            + f"\n<pre>/char {quoted(EXAMPLE)}</pre>"
        )
        return
    if ":" in args or args.lstrip().startswith("{"):
        await _save(message, bot, game, args, template=False)
        return
    words = args.split()
    as_json = words[-1].lower() in JSON_WORDS
    name = " ".join(words[:-1] if as_json else words)
    user = message.from_user.id
    try:
        found = await library_name(game.id, name, user)
        record = await get_character(game.id, found or name, viewer_id=user)
    except NoCharacter:
        known = [r.name for r in await list_characters(game.id, viewer_id=user)]
        raise Refusal(no_such_character(name, known)) from None
    if as_json:
        data = json.dumps(json.loads(character_to_json(record.character)), ensure_ascii=False)
        shown = f"<pre>{quoted(data)}</pre>"
    else:
        shown = sheet_block(record)
    if record.template and _in_group(message):
        public = _("<b>{name}</b> is an NPC template.").format(name=quoted(record.name))
        await to_gm(bot, message, game, shown, public)
        return
    await message.reply(shown)


async def on_npc(
    message: Message, command: CommandObject, bot: Bot, game: GameInfo | None = None
) -> None:
    args = (command.args or "").strip()
    if not args:
        await message.reply(_("GM: send an NPC template as a sheet block after /npc."))
        return
    await _save(message, bot, await _game(message, game), args, template=True)


async def on_chars(message: Message, game: GameInfo | None = None) -> None:
    game = await _game(message, game)
    assert message.from_user is not None
    records = await list_characters(game.id, viewer_id=message.from_user.id)
    if not records:
        await message.reply(_("No characters saved yet: /char with a sheet saves one."))
        return
    lines = [_("<b>Characters</b>")]
    for r in records:
        mark = _("NPC template") if r.template else ""
        lines.append(f"• {quoted(r.name)}" + (f" — {mark}" if mark else ""))
    await message.reply("\n".join(lines))
