"""The duel's chat handlers: fighters and the duel in the thread, the submission form and
the GM's review in the DM (buttons only), export and undo."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware, Bot, Router
from aiogram.filters import Command, CommandObject, Filter
from aiogram.types import (
    BufferedInputFile,
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    TelegramObject,
)
from aiogram.utils.i18n import gettext as _

from bot.filters import IN_GROUPS
from bot.parsing import topic_of
from bot.render import texts
from bot.render.common import as_plain, quoted
from bot.systems.duel import draft
from bot.systems.duel.callbacks import DuelFormCallback, DuelReviewCallback
from bot.systems.duel.render.form import (
    NOOP,
    comment_of,
    form_keyboard,
    form_text,
    plan_or_none,
)
from bot.systems.duel.render.review import (
    faces_keyboard,
    hp_keyboard,
    reason_text,
    reasons_keyboard,
    review_keyboard,
    review_text,
)
from bot.systems.duel.tell import player_of, send_forms, send_review, tell
from engine import duel
from engine import texts as engine_texts
from engine.duel.check import allowed_actions
from engine.duel.export import export_text
from engine.receipt import short_code
from engine.services import duel as duels
from engine.services import find_game, games_of_user, get_game
from engine.services.errors import NotGm, WrongSystem
from engine.services.types import GameInfo

CODE = duels.CODE
_VERSUS = re.compile(r"\s+(?:против|vs\.?|x)\s+|\s*\|\s*", re.IGNORECASE)


class DuelRefusals(BaseMiddleware):
    """The engine's refusals in the user's words: a reply, or an alert on a button."""

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        try:
            return await handler(event, data)
        except duel.DuelError as error:
            text = texts.error_text(error) or _("This cannot be done.")
        except draft.BadDraft:
            text = _("This form is out of date: ask for a new one with /turn.")
        if isinstance(event, Message):
            await event.reply(text)
        elif isinstance(event, CallbackQuery):
            await event.answer(as_plain(text)[:200], show_alert=True)
        return None


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
                if (event.text or "").startswith("/turn") or form_replied(event) is not None:
                    found = [g for g in await games_of_user(event.from_user.id) if g.system == CODE]
                    data["game"] = found[0] if found else None
            elif topic_of(event) is not None:
                data["game"] = await find_game(event.chat.id, None)
        return await handler(event, data)


def form_replied(message: Message) -> DuelFormCallback | None:
    """The form a DM message replies to (its buttons say which), or None."""
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
    return found[0].model_copy(
        update={
            "op": "sent" if sent else "comment",
            "stage": stage,
            "draft": drafts[0] if drafts else "",
        }
    )


class RepliesToForm(Filter):
    async def __call__(self, message: Message) -> bool:
        text = message.text or ""
        private = message.chat.type == "private"
        return (
            private
            and bool(text)
            and not text.startswith("/")
            and form_replied(message) is not None
        )


class IsLabel(Filter):
    """A label on the form's keyboard (answered with nothing); a coroutine, as every filter
    of the dispatcher is."""

    async def __call__(self, query: CallbackQuery) -> bool:
        return query.data == NOOP


def thread_of(message: Message) -> int:
    return topic_of(message) or 0


def _game(data: GameInfo | None) -> GameInfo:
    if data is None or data.system != CODE:
        raise WrongSystem(system=None if data is None else data.system, expected=CODE)
    return data


# --- the thread -----------------------------------------------------------------------------


async def on_fighter(message: Message, command: CommandObject, game: GameInfo | None) -> None:
    game = _game(game)
    assert message.from_user is not None
    if not command.args:
        await message.reply(
            _("Write the fighter after the command, e.g.\n<code>/fighter Бьорн\nКласс: Рейдер\n"
              "Атака 2, Блок 1, Уклонение 0, Урон d8, Хп 24, Броня 1</code>")
        )  # fmt: skip
        return
    record, warnings = await duels.save_fighter(
        game.id, command.args, actor_id=message.from_user.id
    )
    lines = [_("Fighter saved:"), f"<pre>{quoted(record.sheet)}</pre>"]
    lines += [texts.text(w) for w in warnings]
    await message.reply("\n".join(lines))


async def on_fighters(message: Message, game: GameInfo | None) -> None:
    game = _game(game)
    found = await duels.list_fighters(game.id)
    if not found:
        await message.reply(_("No fighters yet: add one with /fighter."))
        return
    await message.reply("\n".join(f"<pre>{quoted(f.sheet)}</pre>" for f in found))


async def on_duel(
    message: Message, command: CommandObject, bot: Bot, rng: Any, game: GameInfo | None
) -> None:
    game = _game(game)
    assert message.from_user is not None
    names = [n.strip() for n in _VERSUS.split(command.args or "", maxsplit=1) if n.strip()]
    if len(names) != 2:
        await message.reply(_("Name the two fighters: <code>/duel Бьорн против Такеда</code>"))
        return
    thread = thread_of(message)
    out = await duels.start_duel(
        game.id, thread=thread, a=names[0], b=names[1], actor_id=message.from_user.id, rng=rng
    )
    await tell(bot, game, thread, out.events, out.state)


async def _view(game: GameInfo, thread: int) -> duels.DuelView:
    view = await duels.current_duel(game.id, thread)
    if view is None:
        raise duels.NoDuel(game_id=game.id, thread=thread)
    return view


async def on_turn(message: Message, bot: Bot, game: GameInfo | None) -> None:
    """The form again (in the thread: for this duel; in the DM: every duel waiting)."""
    game = _game(game)
    assert message.from_user is not None
    user = message.from_user.id
    views = (
        await duels.open_duels(game.id)
        if message.chat.type == "private"
        else [await _view(game, thread_of(message))]
    )
    sent = 0
    for view in views:
        sent += await send_forms(bot, game, duels.thread_of(view.stream), view.state, only={user})
    if sent:
        await message.reply(_("The form is in your DM with the bot."))
    else:
        await message.reply(_("No turn of yours is waiting (or start the bot in the DM first)."))


async def on_remind(message: Message, bot: Bot, game: GameInfo | None) -> None:
    game = _game(game)
    assert message.from_user is not None
    if message.from_user.id != game.gm_id:
        raise NotGm(game_id=game.id, user_id=message.from_user.id)
    view = await _view(game, thread_of(message))
    sent = await send_forms(bot, game, thread_of(message), view.state)
    await message.reply(_("Reminders sent: {n}.").format(n=sent))


async def on_export(message: Message, game: GameInfo | None) -> None:
    game = _game(game)
    view = await _view(game, thread_of(message))
    locale = texts.locale()
    text = export_text(view.state, lambda t, n: engine_texts.translate(locale, t, n))
    document = BufferedInputFile(text.encode("utf-8"), filename="duel.txt")
    await message.reply_document(document, caption=_("The whole duel as text."))


async def on_undo(message: Message, bot: Bot, game: GameInfo | None) -> None:
    game = _game(game)
    assert message.from_user is not None
    thread = thread_of(message)
    out = await duels.undo_duel(game.id, thread, actor_id=message.from_user.id)
    await message.reply(_("The last step of the duel is taken back."))
    await send_review(bot, game, thread, out.state)


# --- the DM: the form -------------------------------------------------------------------------


async def on_noop(query: CallbackQuery) -> None:
    await query.answer()


async def on_form(
    query: CallbackQuery, callback_data: DuelFormCallback, bot: Bot, rng: Any
) -> None:
    cb = callback_data
    game = await get_game(cb.game_id)
    view = await _view(game, cb.thread)
    state = view.state
    if state.turn != cb.turn:
        raise duel.DuelError("wrong_turn", {"got": cb.turn, "turn": state.turn})
    if player_of(game, state, cb.fighter) != query.from_user.id:
        raise duel.DuelError("not_your_fighter")
    cls = state.fighter(cb.fighter).fighter.fighter_class
    actions, stage = draft.decode(cb.draft, cls), cb.stage
    comment = comment_of(getattr(query.message, "text", None) or "")
    op = cb.op
    if op.startswith("+"):
        actions = (*actions, draft.decode_action(op[1:], cls))
        duel.plan(state, cb.fighter, actions)  # a refusal answers the press
        more = any(plan_or_none(state, cb.fighter, (*actions, a)) for _, a in draft.candidates(cls))
        stage = 0 if more and len(actions) < allowed_actions(state.fighter(cb.fighter)) + 1 else 1
    elif op[:3] in ("ap+", "ap-", "dm+", "dm-", "ez+", "ez-"):
        i = int(op[3:])
        if not 0 <= i < len(actions):
            raise draft.BadDraft(op)
        changed = list(actions)
        changed[i] = draft.bump(actions[i], op[:2], 1 if op[2] == "+" else -1)
        actions = tuple(changed)
        duel.plan(state, cb.fighter, actions)
    elif op == "reset":
        actions, stage = (), 0
    elif op == "send":
        out = await duels.submit_turn(
            game.id, cb.thread, fighter=cb.fighter, actions=actions, turn=cb.turn,
            actor_id=query.from_user.id, rng=rng, comment=comment,
        )  # fmt: skip
        sealed = out.state.sealed(cb.fighter)
        assert sealed is not None
        note = _("✅ Sent. Receipt: <code>{receipt}</code>. You may change the turn until "
                 "the opponent's is in.").format(receipt=short_code(sealed.receipt))  # fmt: skip
        change = DuelFormCallback(
            op="reset", game_id=game.id, thread=cb.thread, fighter=cb.fighter, turn=cb.turn
        )
        markup = InlineKeyboardMarkup(
            inline_keyboard=[
                [InlineKeyboardButton(text=_("✏️ Change the turn"), callback_data=change.pack())]
            ]
        )
        if query.message is not None:
            await bot.edit_message_text(
                form_text(state, cb.fighter, actions, 1, sent=note, comment=comment),
                chat_id=query.from_user.id,
                message_id=query.message.message_id,
                reply_markup=markup,
            )
        await query.answer(_("Sent."))
        await tell(bot, game, cb.thread, out.events, out.state)
        return
    elif op == "next":
        stage = 1
    if query.message is not None:
        await bot.edit_message_text(
            form_text(state, cb.fighter, actions, stage, comment=comment),
            chat_id=query.from_user.id,
            message_id=query.message.message_id,
            reply_markup=form_keyboard(
                state, cb.fighter, cb.turn, game.id, cb.thread, actions, stage
            ),
        )
    await query.answer()


async def on_comment(message: Message, bot: Bot) -> None:
    """A reply to the form is the comment to the GM («Комментарий мастеру»): the form shows
    it, and the turn is sent with it."""
    cb = form_replied(message)
    assert cb is not None and message.reply_to_message is not None and message.from_user
    if cb.op == "sent":
        await message.reply(
            _("This turn is sent: press «✏️ Change the turn» to send it with a comment.")
        )
        return
    game = await get_game(cb.game_id)
    state = (await _view(game, cb.thread)).state
    if state.turn != cb.turn:
        raise duel.DuelError("wrong_turn", {"got": cb.turn, "turn": state.turn})
    if player_of(game, state, cb.fighter) != message.from_user.id:
        raise duel.DuelError("not_your_fighter")
    actions = draft.decode(cb.draft, state.fighter(cb.fighter).fighter.fighter_class)
    text = (message.text or "").strip()[:500]
    await bot.edit_message_text(
        form_text(state, cb.fighter, actions, cb.stage, comment=text),
        chat_id=message.chat.id,
        message_id=message.reply_to_message.message_id,
        reply_markup=form_keyboard(
            state, cb.fighter, cb.turn, game.id, cb.thread, actions, cb.stage
        ),
    )
    await message.reply(_("The comment is in the form: it goes with the turn."))


# --- the DM: the GM's review ---------------------------------------------------------------------


async def on_review(
    query: CallbackQuery, callback_data: DuelReviewCallback, bot: Bot, rng: Any
) -> None:
    cb = callback_data
    game = await get_game(cb.game_id)
    user = query.from_user.id
    if user != game.gm_id:
        raise NotGm(game_id=game.id, user_id=user)
    state = (await _view(game, cb.thread)).state
    markup = None
    text = None
    if cb.op == "publish":
        out = await duels.publish_turn(game.id, cb.thread, turn=cb.turn, actor_id=user, rng=rng)
        text = _("✅ Turn {turn} is published.").format(turn=cb.turn)
        await _edit(bot, query, text, None)
        await query.answer()
        await tell(bot, game, cb.thread, out.events, out.state)
        return
    if cb.turn != state.turn:
        raise duel.DuelError("wrong_turn", {"got": cb.turn, "turn": state.turn})
    if cb.op == "undo":
        state = (await duels.undo_duel(game.id, cb.thread, actor_id=user)).state
    elif cb.op == "remind":
        sent = await send_forms(bot, game, cb.thread, state)
        await query.answer(_("Reminders sent: {n}.").format(n=sent))
        return
    elif cb.op == "roll":
        markup = faces_keyboard(cb)
    elif cb.op == "hp":
        markup = hp_keyboard(cb, duel.propose(state).after_of(cb.fighter).hp)
    elif cb.op == "pick":
        markup = reasons_keyboard(cb)
    elif cb.op == "why":
        value: int | bool = cb.value
        out = await duels.adjust_turn(
            game.id, cb.thread, turn=cb.turn, fighter=cb.fighter, field=cb.field, value=value,
            reason=reason_text(cb.reason), actor_id=user, rng=rng, action=cb.action,
            check=cb.check,
        )  # fmt: skip
        state = out.state
    if markup is not None:
        if query.message is not None:
            await bot.edit_message_reply_markup(
                chat_id=user, message_id=query.message.message_id, reply_markup=markup
            )
        await query.answer()
        return
    await _edit(bot, query, review_text(state), review_keyboard(state, game.id, cb.thread))
    await query.answer()


async def _edit(bot: Bot, query: CallbackQuery, text: str, markup: Any) -> None:
    if query.message is not None:
        await bot.edit_message_text(
            text[:4096],
            chat_id=query.from_user.id,
            message_id=query.message.message_id,
            reply_markup=markup,
        )


def make_router() -> Router:
    router = Router(name="duel")
    router.message.outer_middleware(DuelGame())
    router.message.middleware(DuelRefusals())
    router.callback_query.middleware(DuelRefusals())
    router.message.register(on_fighter, Command("fighter"), IN_GROUPS)
    router.message.register(on_fighters, Command("fighters"), IN_GROUPS)
    router.message.register(on_duel, Command("duel"), IN_GROUPS)
    router.message.register(on_remind, Command("remind"), IN_GROUPS)
    router.message.register(on_export, Command("export"), IN_GROUPS)
    router.message.register(on_undo, Command("undo"), IN_GROUPS)
    router.message.register(on_turn, Command("turn"))
    router.message.register(on_comment, RepliesToForm())
    router.callback_query.register(on_noop, IsLabel())
    router.callback_query.register(on_form, DuelFormCallback.filter())
    router.callback_query.register(on_review, DuelReviewCallback.filter())
    return router
