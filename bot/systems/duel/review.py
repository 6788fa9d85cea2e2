"""The GM's review in the DM once both turns are in: a die or a value changed with its
reason (a button's, or the GM's own as a reply), reminders, a default defense past the
deadline, the undo, and the publication of the turn."""

from __future__ import annotations

from aiogram import Bot, Router
from aiogram.filters import Filter
from aiogram.types import CallbackQuery, InlineKeyboardMarkup, Message
from aiogram.utils.i18n import gettext as _

from bot.middlewares.flood import step_and_its_chat
from bot.systems.duel.callbacks import DuelReviewCallback, StaleButton, review_stamp
from bot.systems.duel.common import private_text, require_duel, review_replied
from bot.systems.duel.render.review import (
    FIELDS,
    change_text,
    deadline_keyboard,
    faces_keyboard,
    fields_keyboard,
    reason_text,
    reasons_keyboard,
    review_keyboard,
    review_text,
    values_keyboard,
)
from bot.systems.duel.tell import send_forms, tell
from engine import duel
from engine.dice.rng import Rng
from engine.services import duel as duels
from engine.services import get_game
from engine.services.errors import NotGm
from engine.services.types import GameInfo


class RepliesToChange(Filter):
    async def __call__(self, message: Message) -> bool:
        return private_text(message) and review_replied(message) is not None


async def _review_state(cb: DuelReviewCallback, user: int) -> tuple[GameInfo, duels.DuelView]:
    """The duel a review's button is for, as stored now: refused when the turn moved on or a
    submission changed since the review was made."""
    game = await get_game(cb.game_id)
    if user != game.gm_id:
        raise NotGm(game_id=game.id, user_id=user)
    view = await require_duel(game, cb.thread)
    if cb.stamp != review_stamp(view.stream, view.state):
        raise StaleButton(review=True)
    return game, view


async def _adjust(
    game: GameInfo, view: duels.DuelView, cb: DuelReviewCallback, reason: str, user: int, rng: Rng
) -> duels.DuelOutcome:
    field = FIELDS[cb.field] if 0 <= cb.field < len(FIELDS) else ""
    value: int | bool = bool(cb.value) if field == "standing_up" else cb.value
    return await duels.adjust_turn(
        game.id, cb.thread, turn=view.state.turn, fighter=cb.fighter, field=field, value=value,
        reason=reason, actor_id=user, rng=rng, action=cb.action, check=cb.check,
    )  # fmt: skip


async def on_review(
    query: CallbackQuery, callback_data: DuelReviewCallback, bot: Bot, rng: Rng
) -> None:
    cb = callback_data
    user = query.from_user.id
    game, view = await _review_state(cb, user)
    state = view.state
    markup = None
    if cb.op == "publish":
        async with step_and_its_chat(bot):
            out = await duels.publish_turn(
                game.id, cb.thread, turn=state.turn, actor_id=user, rng=rng
            )
            text = _("✅ Turn {turn} is published.").format(turn=state.turn)
            await _edit(bot, query, text, None)
            await tell(bot, game, out.stream, out.events, out.state)
        await query.answer()
        return
    if cb.op in ("undo", "why"):  # a step, and the review shows the duel after it
        async with step_and_its_chat(bot):
            if cb.op == "undo":
                state = (await duels.undo_duel(game.id, cb.thread, actor_id=user)).state
            else:
                state = (await _adjust(game, view, cb, reason_text(cb.reason), user, rng)).state
            markup = review_keyboard(state, game.id, view.stream)
            await _edit(bot, query, review_text(state), markup)
        await query.answer()
        return
    if cb.op == "remind":
        sent = await send_forms(bot, game, view.stream, state)
        await query.answer(_("Reminders sent: {n}.").format(n=sent))
        return
    elif cb.op == "default":
        async with step_and_its_chat(bot):
            out = await duels.default_turn(
                game.id, cb.thread, turn=state.turn, fighter=cb.fighter, actor_id=user, rng=rng
            )
            if query.message is not None:
                markup = deadline_keyboard(out.state, game.id, out.stream)
                await bot.edit_message_reply_markup(
                    chat_id=user, message_id=query.message.message_id, reply_markup=markup
                )
            await tell(bot, game, out.stream, out.events, out.state)
        await query.answer(_("The default defense is sealed."))
        return
    elif cb.op == "dl":
        hours = cb.value or None
        async with step_and_its_chat(bot):
            out = await duels.set_deadline(
                game.id, cb.thread, hours=hours, policy=duel.POLICIES[cb.reason % 3],
                actor_id=user, rng=rng,
            )  # fmt: skip
            await tell(bot, game, out.stream, out.events, out.state)
        await query.answer(_("Done."))
        return
    elif cb.op in ("roll", "fields", "val"):
        after = duel.propose(state).after_of(cb.fighter)
        if cb.op == "roll":
            markup = faces_keyboard(cb)
        elif cb.op == "fields":
            markup = fields_keyboard(cb, after)
        else:
            markup = values_keyboard(cb, after)
    elif cb.op == "pick":
        await _edit(bot, query, change_text(state, cb), reasons_keyboard(cb))
        await query.answer()
        return
    if markup is not None:
        if query.message is not None:
            await bot.edit_message_reply_markup(
                chat_id=user, message_id=query.message.message_id, reply_markup=markup
            )
        await query.answer()
        return
    await _edit(bot, query, review_text(state), review_keyboard(state, game.id, view.stream))
    await query.answer()


async def on_reason(message: Message, bot: Bot, rng: Rng) -> None:
    """A reply to a change's reasons is the GM's own reason: the change is made with it."""
    cb = review_replied(message)
    assert cb is not None and message.reply_to_message is not None and message.from_user
    user = message.from_user.id
    game, view = await _review_state(cb, user)
    reason = (message.text or "").strip()[:200]
    async with step_and_its_chat(bot):
        state = (await _adjust(game, view, cb, reason, user, rng)).state
        await bot.edit_message_text(
            review_text(state)[:4096],
            chat_id=message.chat.id,
            message_id=message.reply_to_message.message_id,
            reply_markup=review_keyboard(state, game.id, view.stream),
        )
        await message.reply(_("The change is made with your reason."))


async def _edit(
    bot: Bot, query: CallbackQuery, text: str, markup: InlineKeyboardMarkup | None
) -> None:
    if query.message is not None:
        await bot.edit_message_text(
            text[:4096],
            chat_id=query.from_user.id,
            message_id=query.message.message_id,
            reply_markup=markup,
        )


def make_router() -> Router:
    router = Router(name="duel-review")
    router.message.register(on_reason, RepliesToChange())
    router.callback_query.register(on_review, DuelReviewCallback.filter())
    return router
