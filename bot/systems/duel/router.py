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
from bot.middlewares.flood import step_and_its_chat
from bot.middlewares.refusals import Refusals
from bot.parsing import topic_of
from bot.render import texts
from bot.render.common import quoted
from bot.systems.duel import draft
from bot.systems.duel.callbacks import (
    DuelFormCallback,
    DuelReviewCallback,
    DuelRuleCallback,
    StaleButton,
    form_stamp,
    review_stamp,
)
from bot.systems.duel.deadline import WORDS as DEADLINE_WORDS
from bot.systems.duel.deadline import BadDeadline, parse_deadline
from bot.systems.duel.render.form import (
    NOOP,
    comment_of,
    form_keyboard,
    form_text,
    plan_or_none,
)
from bot.systems.duel.render.labels import deadline_line
from bot.systems.duel.render.review import (
    FIELDS,
    change_text,
    deadline_keyboard,
    deadline_presets,
    faces_keyboard,
    fields_keyboard,
    reason_text,
    reasons_keyboard,
    review_keyboard,
    review_text,
    values_keyboard,
)
from bot.systems.duel.render.rules import rule_line, rules_keyboard, rules_text
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


def _private_text(message: Message) -> bool:
    """A plain text (no command) in the private chat: what a reply to a form may be."""
    text = message.text or ""
    return message.chat.type == "private" and bool(text) and not text.startswith("/")


class RepliesToForm(Filter):
    async def __call__(self, message: Message) -> bool:
        return _private_text(message) and form_replied(message) is not None


class RepliesToChange(Filter):
    async def __call__(self, message: Message) -> bool:
        return _private_text(message) and review_replied(message) is not None


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
              "Атака 2, Блок 1, Уклонение 0, Урон d8, ХП 24, Броня 1</code>")
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
    words = (command.args or "").split(maxsplit=1)
    if words and words[0].lower() in DEADLINE_WORDS:
        await on_deadline(message, bot, rng, game, words[1] if len(words) > 1 else "")
        return
    if words and words[0].lower() in RULES_WORDS:
        await on_rules(message, game)
        return
    if words and words[0].lower() in STOP_WORDS:  # the GM stops the running duel
        async with step_and_its_chat(bot):  # the step and what it tells, one transaction
            out = await duels.stop_duel(
                game.id, thread_of(message), actor_id=message.from_user.id, rng=rng
            )
            await tell(bot, game, out.stream, out.events, out.state)
        return
    names = [n.strip() for n in _VERSUS.split(command.args or "", maxsplit=1) if n.strip()]
    if len(names) != 2:
        await message.reply(_("Name the two fighters: <code>/duel Бьорн против Такеда</code>"))
        return
    thread = thread_of(message)
    async with step_and_its_chat(bot):
        out = await duels.start_duel(
            game.id, thread=thread, a=names[0], b=names[1], actor_id=message.from_user.id, rng=rng
        )
        await tell(bot, game, out.stream, out.events, out.state)


RULES_WORDS = frozenset(("правила", "rules"))
STOP_WORDS = frozenset(("стоп", "stop"))


async def on_rules(message: Message, game: GameInfo) -> None:
    """``/duel правила``: the game's readings for its next duels, a button each (the GM's)."""
    assert message.from_user is not None
    if message.from_user.id != game.gm_id:
        raise NotGm(game_id=game.id, user_id=message.from_user.id)
    rules = duels.game_rules(game)
    await message.reply(rules_text(rules), reply_markup=rules_keyboard(game.id))


async def on_rule(query: CallbackQuery, callback_data: DuelRuleCallback, bot: Bot) -> None:
    """A tap on a reading: its next value, for the game's next duels (the GM only)."""
    game = await get_game(callback_data.game_id)
    if query.from_user.id != game.gm_id or not 0 <= callback_data.rule < len(duels.NAMES):
        await query.answer(_("Only the GM of this game changes its rules."), show_alert=True)
        return
    name = duels.NAMES[callback_data.rule]
    value = duels.next_value(duels.game_rules(game), name)
    async with step_and_its_chat(bot):
        rules = await duels.set_rule(game.id, name, value, actor_id=query.from_user.id)
        if query.message is not None:
            await bot.edit_message_text(
                rules_text(rules),
                chat_id=query.message.chat.id,
                message_id=query.message.message_id,
                reply_markup=rules_keyboard(game.id),
            )
    await query.answer(rule_line(name, rules))  # a round trip: not within the transaction


def deadline_usage() -> str:
    return _(
        "The time of each turn: <code>/duel срок 24ч</code> (or <code>2д</code>; "
        "<code>/duel срок нет</code> lifts it), and what happens then — add "
        "<code>спросить</code> (you are told who is silent and may seal a default defense "
        "for them; the default), <code>защита</code> (the default defense is sealed at once) "
        "or <code>ждать</code> (the turn waits, the fighters are reminded)."
    )


async def on_deadline(message: Message, bot: Bot, rng: Any, game: GameInfo, args: str) -> None:
    """``/duel срок 24ч [спросить|защита|ждать]``: the GM's deadline per turn of this duel;
    without a time, the usage and a choice of common ones by buttons."""
    assert message.from_user is not None
    if message.from_user.id != game.gm_id:
        raise NotGm(game_id=game.id, user_id=message.from_user.id)
    view = await _view(game, thread_of(message))
    if not args.strip():
        lines = [deadline_usage()]
        if (line := deadline_line(view.state)) is not None:
            lines.insert(0, line)
        markup = deadline_presets(view.state, game.id, view.stream)
        await message.reply("\n\n".join(lines), reply_markup=markup)
        return
    try:
        hours, policy = parse_deadline(args)
    except BadDeadline:
        await message.reply(deadline_usage())
        return
    async with step_and_its_chat(bot):
        out = await duels.set_deadline(
            game.id, thread_of(message), hours=hours, policy=policy,
            actor_id=message.from_user.id, rng=rng,
        )  # fmt: skip
        await tell(bot, game, out.stream, out.events, out.state)


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
        sent += await send_forms(bot, game, view.stream, view.state, only={user})
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
    sent = await send_forms(bot, game, view.stream, view.state)
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
    async with step_and_its_chat(bot):
        out = await duels.undo_duel(game.id, thread, actor_id=message.from_user.id)
        await message.reply(_("The last step of the duel is taken back."))
        await send_review(bot, game, out.stream, out.state)


# --- the DM: the form -------------------------------------------------------------------------


async def on_noop(query: CallbackQuery) -> None:
    await query.answer()


async def _form_state(cb: DuelFormCallback, user: int) -> tuple[GameInfo, duels.DuelView]:
    """The duel a form's button is for, as stored now: refused when the form was made for
    another turn (or duel) or the fighter is not the user's."""
    game = await get_game(cb.game_id)
    view = await _view(game, cb.thread)
    if cb.stamp != form_stamp(view.stream, view.state, cb.fighter):
        raise StaleButton()
    if player_of(game, view.state, cb.fighter) != user:
        raise duel.DuelError("not_your_fighter")
    if view.state.sealed(cb.fighter) is not None and not view.state.missing():
        raise duel.DuelError("both_in")  # the form ended with its turn: nothing to change
    return game, view


async def on_form(
    query: CallbackQuery, callback_data: DuelFormCallback, bot: Bot, rng: Any
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
    rng: Any,
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


# --- the DM: the GM's review ---------------------------------------------------------------------


async def _review_state(cb: DuelReviewCallback, user: int) -> tuple[GameInfo, duels.DuelView]:
    """The duel a review's button is for, as stored now: refused when the turn moved on or a
    submission changed since the review was made."""
    game = await get_game(cb.game_id)
    if user != game.gm_id:
        raise NotGm(game_id=game.id, user_id=user)
    view = await _view(game, cb.thread)
    if cb.stamp != review_stamp(view.stream, view.state):
        raise StaleButton(review=True)
    return game, view


async def _adjust(
    game: GameInfo, view: duels.DuelView, cb: DuelReviewCallback, reason: str, user: int, rng: Any
) -> duels.DuelOutcome:
    field = FIELDS[cb.field] if 0 <= cb.field < len(FIELDS) else ""
    value: int | bool = bool(cb.value) if field == "standing_up" else cb.value
    return await duels.adjust_turn(
        game.id, cb.thread, turn=view.state.turn, fighter=cb.fighter, field=field, value=value,
        reason=reason, actor_id=user, rng=rng, action=cb.action, check=cb.check,
    )  # fmt: skip


async def on_review(
    query: CallbackQuery, callback_data: DuelReviewCallback, bot: Bot, rng: Any
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


async def on_reason(message: Message, bot: Bot, rng: Any) -> None:
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
    router.message.middleware(refusals())
    router.callback_query.middleware(refusals())
    router.message.register(on_fighter, Command("fighter"), IN_GROUPS)
    router.message.register(on_fighters, Command("fighters"), IN_GROUPS)
    router.message.register(on_duel, Command("duel"), IN_GROUPS)
    router.message.register(on_remind, Command("remind"), IN_GROUPS)
    router.message.register(on_export, Command("export"), IN_GROUPS)
    router.message.register(on_undo, Command("undo"), IN_GROUPS)
    router.message.register(on_turn, Command("turn"))
    router.message.register(on_comment, RepliesToForm())
    router.message.register(on_reason, RepliesToChange())
    router.callback_query.register(on_noop, IsLabel())
    router.callback_query.register(on_form, DuelFormCallback.filter())
    router.callback_query.register(on_review, DuelReviewCallback.filter())
    router.callback_query.register(on_rule, DuelRuleCallback.filter())
    return router
