"""The example system's contest in the chat: /contest (the GM starts it), a toss by the board's
button or /toss, the GM's /undo of the last toss and /endcontest; one board message, edited
in place; a step made in the Mini App brought to the board too (`board_sync`). Its texts are
written here in Russian, as the test tree has no catalogs (a real system's are msgids,
translated in locales/)."""

from __future__ import annotations

from aiogram import Bot, Router, html
from aiogram.filters import Command
from aiogram.filters.callback_data import CallbackData
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.board_message import board_keeper, edit_or_send
from bot.filters import IN_GROUPS
from bot.middlewares.flood import step_and_its_chat
from bot.systems.filters import game_of
from engine.dice.rng import Rng
from engine.services import GameInfo, NoGame, get_game, get_user
from engine.services.notify import Notification
from engine.services.scenes import SceneView

from .contest import KIND, Contest, TossCoin
from .services import current_contest, end_contest, start_contest, toss, undo_toss

COMMANDS = frozenset(("contest", "toss", "undo", "endcontest"))


class TossCallback(CallbackData, prefix="ctoss"):
    """«Бросить монету» under the contest's board: whoever presses it tosses."""

    game_id: int


def make_router() -> Router:
    router = Router(name="coins")
    router.message.filter(IN_GROUPS)
    router.message.register(on_contest, Command("contest"))
    router.message.register(on_toss, Command("toss"))
    router.message.register(on_undo, Command("undo"))
    router.message.register(on_end, Command("endcontest"))
    router.callback_query.register(on_button, TossCallback.filter())
    return router


async def _game(message: Message) -> GameInfo:
    game = await game_of(message)
    if game is None:
        raise NoGame()
    return game


def _user(message: Message) -> int:
    assert message.from_user is not None
    return message.from_user.id


async def on_contest(message: Message, bot: Bot) -> None:
    game = await _game(message)
    async with step_and_its_chat(bot):  # the start and its board, one transaction
        await show_board(bot, game, await start_contest(game.id, actor_id=_user(message)))


async def on_toss(message: Message, bot: Bot, rng: Rng) -> None:
    game = await _game(message)
    async with step_and_its_chat(bot):
        out = await toss(game.id, TossCoin(), actor_id=_user(message), rng=rng)
        await show_board(bot, game, out.view(game.id))


async def on_button(query: CallbackQuery, callback_data: TossCallback, bot: Bot, rng: Rng) -> None:
    game = await get_game(callback_data.game_id)
    async with step_and_its_chat(bot):
        out = await toss(game.id, TossCoin(), actor_id=query.from_user.id, rng=rng)
        await show_board(bot, game, out.view(game.id))
    await query.answer()


async def on_undo(message: Message, bot: Bot) -> None:
    game = await _game(message)
    async with step_and_its_chat(bot):
        await undo_toss(game.id, actor_id=_user(message))
        await show_board(bot, game, await current_contest(game.id))


async def on_end(message: Message, bot: Bot) -> None:
    game = await _game(message)
    async with step_and_its_chat(bot):
        await show_board(bot, game, await end_contest(game.id, actor_id=_user(message)))


async def board_text(state: Contest, closed: bool) -> str:
    lines = ["🪙 <b>Монетки: кто выбросит больше орлов</b>" + (" — окончено" if closed else "")]
    tossed = {by: sum(1 for t in state.tosses if t.by == by) for by in state.scores()}
    for by, heads in state.scores().items():
        user = await get_user(by)
        name = html.quote(user.first_name if user is not None else str(by))
        lines.append(f"{name}: орлов {heads} из {tossed[by]}")
    if not state.tosses:
        lines.append("Бросков ещё не было.")
    else:
        lines.append("Последний бросок: " + ("орёл" if state.tosses[-1].heads else "решка"))
    return "\n".join(lines)


async def show_board(bot: Bot, game: GameInfo, view: SceneView[Contest] | None) -> None:
    """The board edited in place (posted when it has none yet); a closed one without its
    button."""
    if view is None:
        return
    markup = None
    if not view.closed:
        button = InlineKeyboardButton(
            text="🪙 Бросить монету", callback_data=TossCallback(game_id=game.id).pack()
        )
        markup = InlineKeyboardMarkup(inline_keyboard=[[button]])
    posted = board_keeper(bot, game, KIND, view, pin=False)
    text = await board_text(view.state, view.closed)
    await edit_or_send(bot, game, view.board_message_id, text, markup, posted)


async def board_sync(bot: Bot, game: GameInfo, note: Notification) -> None:
    """A step made in the Mini App, on the board (the scene as stored after it)."""
    view = await current_contest(game.id)
    if view is None:  # ended in the app: its last board closed
        return
    await show_board(bot, game, view)
