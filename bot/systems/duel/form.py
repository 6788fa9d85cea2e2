"""The fighter's submission form in the DM, by buttons only: actions added and stepped,
the comment to the GM (a reply to the form), and «✉️ Send» — the sealed turn."""

from __future__ import annotations

from aiogram import Bot, Router
from aiogram.filters import Filter
from aiogram.types import CallbackQuery, Message
from aiogram.utils.i18n import gettext as _

from bot.middlewares.flood import step_and_its_chat
from bot.render.keyboards import callback_button, keyboard
from bot.systems.duel import draft
from bot.systems.duel.callbacks import DuelFormCallback, StaleButton, form_stamp
from bot.systems.duel.common import form_replied, private_text, require_duel
from bot.systems.duel.render.form import NOOP, comment_of, form_keyboard, form_text, plan_or_none
from bot.systems.duel.tell import player_of, tell
from engine import duel
from engine.dice.rng import Rng
from engine.duel.check import allowed_actions
from engine.receipt import short_code
from engine.services import duel as duels
from engine.services import get_game
from engine.services.types import GameInfo


class RepliesToForm(Filter):
    async def __call__(self, message: Message) -> bool:
        return private_text(message) and form_replied(message) is not None


class IsLabel(Filter):
    """A label on the form's keyboard (answered with nothing); a coroutine, as every filter
    of the dispatcher is."""

    async def __call__(self, query: CallbackQuery) -> bool:
        return query.data == NOOP


async def on_noop(query: CallbackQuery) -> None:
    await query.answer()


async def _form_state(cb: DuelFormCallback, user: int) -> tuple[GameInfo, duels.DuelView]:
    """The duel a form's button is for, as stored now: refused when the form was made for
    another turn (or duel) or the fighter is not the user's."""
    game = await get_game(cb.game_id)
    view = await require_duel(game, cb.thread)
    if cb.stamp != form_stamp(view.stream, view.state, cb.fighter):
        raise StaleButton()
    if player_of(game, view.state, cb.fighter) != user:
        raise duel.DuelError("not_your_fighter")
    if view.state.sealed(cb.fighter) is not None and not view.state.missing():
        raise duel.DuelError("both_in")  # the form ended with its turn: nothing to change
    return game, view


async def on_form(
    query: CallbackQuery, callback_data: DuelFormCallback, bot: Bot, rng: Rng
) -> None:
    cb = callback_data
    game, view = await _form_state(cb, query.from_user.id)
    state = view.state
    cls = state.fighter(cb.fighter).fighter.fighter_class
    actions = draft.decode(cb.draft, cls)
    stage = 1 if cb.op[:3] in STEPPERS else 0
    comment = comment_of(getattr(query.message, "text", None) or "")
    op = cb.op
    if op.startswith("+"):
        actions = (*actions, draft.decode_action(op[1:], cls))
        duel.plan(state, cb.fighter, actions)  # a refusal answers the press
        more = any(plan_or_none(state, cb.fighter, (*actions, a)) for _, a in draft.candidates(cls))
        stage = 0 if more and len(actions) < allowed_actions(state.fighter(cb.fighter)) + 1 else 1
    elif op[:3] in STEPPERS:
        i = int(op[3:]) if op[3:].isdigit() else -1
        if not 0 <= i < len(actions):
            raise draft.BadDraft(op)
        changed = list(actions)
        changed[i] = draft.bump(actions[i], op[:2], 1 if op[2] == "+" else -1)
        actions = tuple(changed)
        duel.plan(state, cb.fighter, actions)
    elif op == "reset":
        actions, stage = (), 0
    elif op == "send":
        await _seal(query, cb, bot, rng, game, state, actions, comment)
        return
    elif op == "next":
        stage = 1
    if query.message is not None:
        await bot.edit_message_text(
            form_text(state, cb.fighter, actions, stage, comment=comment),
            chat_id=query.from_user.id,
            message_id=query.message.message_id,
            reply_markup=form_keyboard(
                state, cb.fighter, cb.stamp, game.id, cb.thread, actions, stage
            ),
        )
    await query.answer()


STEPPERS = frozenset(("ap+", "ap-", "dm+", "dm-", "ez+", "ez-"))


async def _seal(
    query: CallbackQuery,
    cb: DuelFormCallback,
    bot: Bot,
    rng: Rng,
    game: GameInfo,
    state: duel.DuelState,
    actions: tuple[duel.Action, ...],
    comment: str,
) -> None:
    """«✉️ Send the turn»: the sealed turn, its form showing the receipt and the 🔒 in the
    topic — the step and what it tells the chat in one transaction."""
    async with step_and_its_chat(bot):
        out = await duels.submit_turn(
            game.id, cb.thread, fighter=cb.fighter, actions=actions, turn=state.turn,
            actor_id=query.from_user.id, rng=rng, comment=comment,
            seals=state.seals(cb.fighter),
        )  # fmt: skip
        sealed = out.state.sealed(cb.fighter)
        assert sealed is not None
        note = _("✅ Sent. Receipt: <code>{receipt}</code>. You may change the turn until "
                 "the opponent's is in.").format(receipt=short_code(sealed.receipt))  # fmt: skip
        fresh = form_stamp(out.stream, out.state, cb.fighter)
        change = cb.model_copy(update={"op": "reset", "draft": "", "stamp": fresh})
        markup = keyboard([[callback_button(_("✏️ Change the turn"), change)]])
        if query.message is not None:
            await bot.edit_message_text(
                form_text(state, cb.fighter, actions, 1, sent=note, comment=comment),
                chat_id=query.from_user.id,
                message_id=query.message.message_id,
                reply_markup=markup,
            )
        await tell(bot, game, out.stream, out.events, out.state)
    await query.answer(_("Sent."))  # a round trip: not within the transaction


async def on_comment(message: Message, bot: Bot) -> None:
    """A reply to the form is the comment to the GM («Комментарий мастеру»): the form shows
    it, and the turn is sent with it."""
    found = form_replied(message)
    assert found is not None and message.reply_to_message is not None and message.from_user
    cb, stage = found
    if cb.op == "sent":
        await message.reply(
            _("This turn is sent: press «✏️ Change the turn» to send it with a comment.")
        )
        return
    game, view = await _form_state(cb, message.from_user.id)
    state = view.state
    actions = draft.decode(cb.draft, state.fighter(cb.fighter).fighter.fighter_class)
    text = (message.text or "").strip()[:500]
    await bot.edit_message_text(
        form_text(state, cb.fighter, actions, stage, comment=text),
        chat_id=message.chat.id,
        message_id=message.reply_to_message.message_id,
        reply_markup=form_keyboard(state, cb.fighter, cb.stamp, game.id, cb.thread, actions, stage),
    )
    await message.reply(_("The comment is in the form: it goes with the turn."))


def make_router() -> Router:
    router = Router(name="duel-form")
    router.message.register(on_comment, RepliesToForm())
    router.callback_query.register(on_noop, IsLabel())
    router.callback_query.register(on_form, DuelFormCallback.filter())
    return router
