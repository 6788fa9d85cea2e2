"""Games and roles: /newgame, /join, /gm (in reply), /game, /endgame in a group; /games
(/play) in the private chat chooses the game private rolls go to."""

from __future__ import annotations

from aiogram import Bot, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message

from bot.callbacks import PickGameCallback
from bot.filters import IN_GROUPS, IN_PRIVATE
from bot.middlewares.flood import step_and_its_chat
from bot.miniapp import MiniApp
from bot.parsing import replied_to, split_newgame, topic_of
from bot.render import games as texts
from bot.render.common import as_plain
from bot.render.keyboards import games_keyboard, single_button
from engine.services import (
    clear_private_game,
    create_game,
    end_game,
    find_game,
    games_of_user,
    get_user,
    join_game,
    select_private_game,
    selected_private_game,
    touch_user,
    transfer_gm,
)
from engine.services.types import GameInfo

GROUPS = IN_GROUPS


def make_router() -> Router:
    router = Router(name="games")
    router.message.register(on_newgame, Command("newgame"), GROUPS)
    router.message.register(on_join, Command("join"), GROUPS)
    router.message.register(on_gm, Command("gm"), GROUPS)
    router.message.register(on_game, Command("game"), GROUPS)
    router.message.register(on_endgame, Command("endgame"), GROUPS)
    router.message.register(on_games, Command("games", "play"), IN_PRIVATE)
    router.message.register(on_group_only, Command("newgame", "join", "gm", "game", "endgame"))
    router.message.register(on_private_only, Command("games", "play"))
    router.callback_query.register(on_pick_game, PickGameCallback.filter())
    return router


async def _this_game(message: Message) -> GameInfo | None:
    game = await find_game(message.chat.id, topic_of(message))
    if game is None:
        await message.reply(texts.no_game_here())
    return game


async def _names(game: GameInfo) -> dict[int, str]:
    ids = ([game.gm_id] if game.gm_id is not None else []) + list(game.player_ids)
    users = [await get_user(user_id) for user_id in ids]
    return {user.id: user.first_name for user in users if user is not None}


async def on_newgame(message: Message, command: CommandObject, bot: Bot) -> None:
    system, name = split_newgame(command.args)
    if system is None or not name:
        await message.reply(texts.newgame_usage())
        return
    user = message.from_user
    assert user is not None
    async with step_and_its_chat(bot):  # the game and its announcement, one transaction
        game = await create_game(
            chat_id=message.chat.id,
            topic_id=topic_of(message),
            system=system,
            name=name,
            creator_id=user.id,
            chat_title=message.chat.title,
            chat_type=message.chat.type,
            is_forum=bool(message.chat.is_forum),
        )
        await message.reply(texts.game_created(game, user.first_name))


async def on_join(message: Message, bot: Bot) -> None:
    game = await _this_game(message)
    if game is None:
        return
    user = message.from_user
    assert user is not None
    if game.is_member(user.id):
        await message.reply(texts.already_member(game, user.first_name))
        return
    async with step_and_its_chat(bot):
        game = await join_game(game.id, user.id)
        await message.reply(texts.joined(game, user.first_name))


async def on_gm(message: Message, bot: Bot) -> None:
    reply = replied_to(message)
    target = reply.from_user if reply is not None else None
    if target is None or target.is_bot:
        await message.reply(texts.gm_usage())
        return
    game = await _this_game(message)
    if game is None:
        return
    assert message.from_user is not None
    async with step_and_its_chat(bot):
        await touch_user(target.id, target.first_name, target.username)  # may never have written
        game = await transfer_gm(game.id, actor_id=message.from_user.id, new_gm_id=target.id)
        await message.reply(texts.gm_transferred(game, target.first_name))


async def on_game(message: Message, bot: Bot, miniapp: MiniApp) -> None:
    game = await _this_game(message)
    if game is not None:
        button = await miniapp.button(bot, game.id, "game")
        await message.reply(
            texts.game_card(game, await _names(game)), reply_markup=single_button(button)
        )


async def on_endgame(message: Message, bot: Bot) -> None:
    game = await _this_game(message)
    if game is None:
        return
    assert message.from_user is not None
    async with step_and_its_chat(bot):
        game = await end_game(game.id, actor_id=message.from_user.id)
        await message.reply(texts.game_ended(game))


async def on_games(message: Message) -> None:
    assert message.from_user is not None
    games = await games_of_user(message.from_user.id)
    if not games:
        await message.reply(texts.no_games())
        return
    selected = await selected_private_game(message.from_user.id)
    selected_id = selected.id if selected else None
    await message.reply(
        texts.games_menu(games, selected_id), reply_markup=games_keyboard(games, selected_id)
    )


async def on_pick_game(query: CallbackQuery, callback_data: PickGameCallback, bot: Bot) -> None:
    """The choice and the menu's edit are one transaction; the button's answer follows it
    (answering a button is not a chat call that waits for the commit)."""
    async with step_and_its_chat(bot):
        toast = await _pick_game(query, callback_data.game_id)
    await query.answer(as_plain(toast))


async def _pick_game(query: CallbackQuery, game_id: int) -> str:
    """Choose the game (0: none, open rolls) and show it in the menu; the toast's text."""
    if game_id == 0:
        await clear_private_game(query.from_user.id)
        if isinstance(query.message, Message):
            games = await games_of_user(query.from_user.id)
            await query.message.edit_text(
                texts.games_menu(games, None) + "\n\n" + texts.open_rolls_selected(),
                reply_markup=games_keyboard(games, None),
            )
        return texts.open_rolls_selected()
    game = await select_private_game(query.from_user.id, game_id)
    if isinstance(query.message, Message):
        games = await games_of_user(query.from_user.id)
        await query.message.edit_text(
            texts.games_menu(games, game.id) + "\n\n" + texts.game_selected(game),
            reply_markup=games_keyboard(games, game.id),
        )
    return texts.game_selected_toast(game)


async def on_group_only(message: Message) -> None:
    await message.reply(texts.group_only())


async def on_private_only(message: Message) -> None:
    await message.reply(texts.private_only())
