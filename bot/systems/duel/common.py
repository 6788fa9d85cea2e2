"""What the duel's chat screens share (bot/systems/duel/router.py): the game a duel
message belongs to, the refusals in the user's words, the form or change a DM message
replies to, and the duel a command or a button is for."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import Message, TelegramObject
from aiogram.utils.i18n import gettext as _

from bot.middlewares.refusals import Refusals
from bot.parsing import topic_of
from bot.render import texts
from bot.systems.duel import draft
from bot.systems.duel.callbacks import DuelFormCallback, DuelReviewCallback, StaleButton
from engine import duel
from engine.services import duel as duels
from engine.services import find_game, games_of_user
from engine.services.errors import WrongSystem
from engine.services.types import GameInfo

CODE = duels.CODE


def _stale(stale: StaleButton) -> str:
    if stale.review:
        return _("This review is out of date: the turn has moved on or a submission changed.")
    return _("This form is out of date: ask for a new one with /turn.")


def refusals() -> Refusals:
    """The engine's refusals in the user's words: a reply, or an alert on a button."""
    return Refusals(
        {
            duel.DuelError: lambda error: texts.error_text(error) or _("This cannot be done."),
            draft.BadDraft: lambda _error: _(
                "This form is out of date: ask for a new one with /turn."
            ),
            StaleButton: _stale,
        }
    )


class DuelGame(BaseMiddleware):
    """The game a duel message belongs to, before the system's filter reads it: a topic
    without a game of its own belongs to the chat's duel game (a duel per topic); in the
    DM, the user's first duel game."""

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        if isinstance(event, Message) and data.get("game") is None and event.from_user:
            if event.chat.type == "private":
                text = event.text or ""
                if text.startswith("/turn") or form_replied(event) or review_replied(event):
                    found = [g for g in await games_of_user(event.from_user.id) if g.system == CODE]
                    data["game"] = found[0] if found else None
            elif topic_of(event) is not None:
                data["game"] = await find_game(event.chat.id, None)
        return await handler(event, data)


def form_replied(message: Message) -> tuple[DuelFormCallback, int] | None:
    """The form a DM message replies to (its buttons say which) and its stage, or None."""
    reply = message.reply_to_message
    markup = reply.reply_markup if reply is not None else None
    found = [
        DuelFormCallback.unpack(b.callback_data)
        for row in (markup.inline_keyboard if markup else [])
        for b in row
        if b.callback_data and b.callback_data.startswith(f"{DuelFormCallback.__prefix__}:")
    ]
    if not found:
        return None
    stage = 1 if any(cb.op == "send" for cb in found) else 0
    sent = all(cb.op == "reset" for cb in found)
    drafts = [cb.draft for cb in found if cb.op != "reset"]
    update = {"op": "sent" if sent else "comment", "draft": drafts[0] if drafts else ""}
    return found[0].model_copy(update=update), stage


def review_replied(message: Message) -> DuelReviewCallback | None:
    """The change a DM message replies to (the reasons of a change: its «why» buttons), or
    None: the GM's own reason is the reply."""
    reply = message.reply_to_message
    markup = reply.reply_markup if reply is not None else None
    for row in markup.inline_keyboard if markup else []:
        for b in row:
            data = b.callback_data or ""
            if data.startswith(f"{DuelReviewCallback.__prefix__}:"):
                cb = DuelReviewCallback.unpack(data)
                if cb.op == "why":
                    return cb
    return None


def private_text(message: Message) -> bool:
    """A plain text (no command) in the private chat: what a reply to a form may be."""
    text = message.text or ""
    return message.chat.type == "private" and bool(text) and not text.startswith("/")


def thread_of(message: Message) -> int:
    return topic_of(message) or 0


def duel_game(data: GameInfo | None) -> GameInfo:
    if data is None or data.system != CODE:
        raise WrongSystem(system=None if data is None else data.system, expected=CODE)
    return data


async def require_duel(game: GameInfo, thread: int) -> duels.DuelView:
    view = await duels.current_duel(game.id, thread)
    if view is None:
        raise duels.NoDuel(game_id=game.id, thread=thread)
    return view
