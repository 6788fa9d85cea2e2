"""The one initiative message per fight: edited in place, sent anew only when it is gone;
and a step told in the chat (its events, a proposal's notice and the GM's private copy)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError, TelegramBadRequest, TelegramForbiddenError
from aiogram.types import InlineKeyboardMarkup, Message
from aiogram.utils.i18n import gettext as _

from bot.board_message import board_keeper, edit_or_send, post_in_game
from bot.board_pin import NotPinned
from bot.middlewares.flood import if_refused
from bot.miniapp import board_button
from bot.render.keyboards import with_button_row
from bot.systems.storyteller import render
from bot.systems.storyteller.defense import asking_text, defense_keyboard
from engine.services import GameInfo
from engine.services.storyteller import FightView, current_fight
from engine.services.storyteller.fights import KIND
from engine.services.storyteller.review import ReviewMessages, remember_review, review_messages
from engine.storyteller import events as ev
from engine.storyteller.decide import preview
from engine.storyteller.fight import Fight

log = logging.getLogger(__name__)
SCREEN = "initiative"


async def show_board(
    bot: Bot, game: GameInfo, *, new: bool = False, not_pinned: NotPinned | None = None
) -> None:
    """The board brought up to date (``new``: posted again below, pinned; `not_pinned`:
    told when Telegram refuses the pin)."""
    view = await current_fight(game.id)
    if view is not None:
        await render_board(bot, game, view, new=new, not_pinned=not_pinned)


# steps the board itself shows (its marks, its turn): told on it, not in a new message
QUIET = (
    ev.Delayed,
    ev.Yielded,
    ev.Acted,
    ev.FullDefenseDeclared,
    ev.ActionsDeclared,
    ev.TurnEnded,
)


async def render_board(
    bot: Bot,
    game: GameInfo,
    view: FightView,
    *,
    new: bool = False,
    news: str = "",
    not_pinned: NotPinned | None = None,
) -> None:
    """The board edited in place (posted anew when gone, and pinned); ``news``: the last
    step's lines, under the board, for a step it tells instead of a new message."""
    text = render.board_text(view.state, closed=view.closed)
    if news:
        text += "\n\n" + news
    markup = None
    if not view.closed:
        app = await board_button(bot, game.id, SCREEN)
        markup = with_button_row(render.board_keyboard(game.id, view.seq), app)
    current = None if new else view.board_message_id
    posted = board_keeper(bot, game, KIND, view, not_pinned=not_pinned)
    await edit_or_send(bot, game, current, text, markup, posted)


Then = Callable[[], Awaitable[None]]


async def send_review(
    bot: Bot, game: GameInfo, fight: Fight, seq: int, refused: Then
) -> int | None:
    """The proposal to the GM in private: its message id (provisional while the step's
    transaction is open); `refused` when the GM has not opened a chat with the bot — now, or
    once the queue learns that Telegram refused the message."""
    if game.gm_id is None:
        await refused()
        return None

    async def not_sent(error: TelegramAPIError) -> None:
        if not isinstance(error, TelegramForbiddenError | TelegramBadRequest):
            raise error
        await refused()

    async with if_refused(not_sent):
        sent = await bot.send_message(
            game.gm_id,
            render.proposal_text(fight, game.name),
            reply_markup=render.review_keyboard(fight, game.id, seq),
        )
        return sent.message_id
    return None  # refused at once (a call whose answer was waited for)


async def _edit(
    bot: Bot,
    chat_id: int,
    message_id: int,
    text: str,
    markup: InlineKeyboardMarkup | None,
    gone: Then,
) -> None:
    """Edit in place; `gone` when the message is gone (now, or when the queue gets to the
    edit): it is then sent anew."""

    async def refused(error: TelegramAPIError) -> None:
        if isinstance(error, TelegramBadRequest) and "not modified" in error.message:
            return
        if not isinstance(error, TelegramForbiddenError | TelegramBadRequest):
            raise error
        await gone()

    async with if_refused(refused):
        await bot.edit_message_text(
            text, chat_id=chat_id, message_id=message_id, reply_markup=markup
        )


@dataclass
class _Review:
    """A proposal's two messages as they are told (`ReviewMessages`); what a refusal learnt
    after the step's commit changes is stored again once the step stored them (`told`)."""

    game_id: int
    stream: str
    opened: int
    dm: int | None
    notice: int | None
    told: bool = False

    async def remember(self) -> None:
        messages = ReviewMessages(self.opened, self.dm, self.notice)
        await remember_review(self.game_id, self.stream, messages)

    async def changed(self) -> None:
        if self.told:
            await self.remember()


async def _tell_notice(
    bot: Bot,
    game: GameInfo,
    review: _Review,
    text: str,
    markup: InlineKeyboardMarkup | None,
    reply_to: Message | None,
) -> None:
    """The group's notice edited in place, or posted (anew when it is gone)."""

    async def post_anew() -> None:
        notice = await post_in_game(bot, game, text, reply_to=reply_to, markup=markup)
        review.notice = notice.message_id
        await review.changed()

    if review.notice is None:
        await post_anew()
    else:
        await _edit(bot, game.chat_id, review.notice, text, markup, post_anew)


async def tell_proposal(
    bot: Bot,
    game: GameInfo,
    view: FightView,
    *,
    reply_to: Message | None = None,
    notice: int | None = None,
    unpublished: bool = False,
) -> None:
    """A proposal made or adjusted: the GM's private copy and the group's notice are sent
    once per proposal, then edited in place (the copy's buttons carry the new seq). While
    the defender's player chooses a defense, the notice carries the choices and the GM's copy
    waits. ``notice``: the group message the attack was picked in, to become its notice;
    ``unpublished``: its publication was undone — the result stays, struck through. The GM
    without a private chat with the bot (learnt now, or once Telegram refused the copy after
    the step's commit) is told on the notice: the proposal is decided in the group."""
    fight = view.state
    assert fight.proposal is not None
    opened = fight.proposal.opened
    known = await review_messages(game.id, view.stream, opened)
    dm, notice = (known.dm, known.notice) if known else (None, notice)
    review = _Review(game.id, view.stream, opened, dm, notice)
    if fight.proposal.asking:
        text = asking_text(fight, fight.options.defense_seconds)
        markup = defense_keyboard(fight, game.id, view.seq)
        await _tell_notice(bot, game, review, text, markup, reply_to)
        await review.remember()
        return
    text = render.waiting_text(fight)
    if unpublished:
        shown = render.events_lines(preview(fight), fight, render.TABLE)
        text = f"<s>{chr(10).join(shown)}</s>\n" + _("↩️ Undone by the GM.") + "\n" + text
    no_chat = _(
        "The GM has no private chat with me: open it with /start, or decide here "
        "with /publish or /drop."
    )
    private = False  # the copy is known to be refused

    async def no_private_chat() -> None:
        nonlocal private
        private, review.dm = True, None
        if review.told:  # learnt after the commit: the notice told so now
            await _tell_notice(bot, game, review, text + "\n" + no_chat, None, reply_to)
            await review.remember()

    async def send_copy() -> None:
        review.dm = await send_review(bot, game, fight, view.seq, no_private_chat)
        await review.changed()

    if review.dm is not None and game.gm_id is not None:
        markup = render.review_keyboard(fight, game.id, view.seq)
        copy = render.proposal_text(fight, game.name)
        await _edit(bot, game.gm_id, review.dm, copy, markup, send_copy)
    else:
        await send_copy()
    await _tell_notice(
        bot, game, review, text + ("\n" + no_chat if private else ""), None, reply_to
    )
    await review.remember()
    review.told = True


async def tell(
    bot: Bot,
    game: GameInfo,
    events: tuple[ev.Event, ...],
    view: FightView,
    *,
    before: Fight | None = None,
    reply_to: Message | None = None,
    notice: int | None = None,
) -> None:
    """A stored step in the chat: a proposal's notice (and the GM's private copy), or the
    events for the table; then the board. ``notice``: a group message to become the notice
    of a new proposal (the picker's)."""
    fight = view.state
    if events and isinstance(events[-1], ev.AttackProposed) and fight.proposal is not None:
        await tell_proposal(bot, game, view, reply_to=reply_to, notice=notice)
    else:
        lines = render.events_lines(events, fight, render.TABLE, *([before] if before else []))
        if lines and reply_to is None and all(isinstance(e, QUIET) for e in events):
            # a tapped step the board shows: the chat stays quiet, the board tells it
            await render_board(bot, game, view, news="\n".join(lines))
            return
        # a new turn's message (the turn's ping) brings the board down with one tap
        started = not view.closed and any(isinstance(e, ev.TurnStarted) for e in events)
        markup = render.turn_keyboard(game.id, view.seq) if started else None

        async def post_lines() -> None:
            await post_in_game(bot, game, "\n".join(lines), reply_to=reply_to, markup=markup)

        if lines and not await _publish_in_place(
            bot, game, view, events, before, lines, post_lines
        ):
            await post_lines()
    await render_board(bot, game, view)


async def _publish_in_place(
    bot: Bot,
    game: GameInfo,
    view: FightView,
    events: tuple[ev.Event, ...],
    before: Fight | None,
    lines: list[str],
    gone: Then,
) -> bool:
    """A published attack is the group's notice of its proposal edited into the result: one
    message per attack (an undo edits it back to the notice, a re-publication edits it
    again — never a duplicate). False when there is no notice to edit (then it is sent;
    `gone` when the notice is gone). Without ``before`` (a step from the Mini App) the
    published proposal is the last one."""
    if not events or not isinstance(events[0], ev.ProposalPublished):
        return False
    if before is not None and before.proposal is None:
        return False
    opened = None if before is None or before.proposal is None else before.proposal.opened
    known = await review_messages(game.id, view.stream, opened)
    if known is None or known.notice is None:
        return False
    await _edit(bot, game.chat_id, known.notice, "\n".join(lines), None, gone)
    return True


async def tell_dropped(
    bot: Bot, game: GameInfo, before: FightView | None, otherwise: Then | None = None
) -> None:
    """A proposal dropped or undone away: its group notice struck through, «the GM dropped
    the attack» under it — the same message, no new one; `otherwise` when there is no
    notice (or it is gone: now, or when the queue gets to the edit)."""
    known = None
    if before is not None and before.state.proposal is not None:
        known = await review_messages(game.id, before.stream, before.state.proposal.opened)
    if before is None or known is None or known.notice is None:
        if otherwise is not None:
            await otherwise()
        return
    text = f"<s>{render.waiting_text(before.state)}</s>\n" + _("The GM dropped the attack.")
    await _edit(bot, game.chat_id, known.notice, text, None, otherwise or _nothing)


async def _nothing() -> None:
    return None


async def _gone(bot: Bot, game: GameInfo, before: FightView | None) -> None:
    """After an undo: a proposal it took away is struck through in the group."""
    if before is None or before.state.proposal is None:
        return
    after = await current_fight(game.id)
    still = after is not None and after.state.proposal is not None
    if not still or (
        after is not None
        and after.state.proposal is not None
        and after.state.proposal.opened != before.state.proposal.opened
    ):
        await tell_dropped(bot, game, before)


async def tell_undone(
    bot: Bot,
    game: GameInfo,
    view: FightView | None = None,
    *,
    before: FightView | None = None,
    undone: tuple[ev.Event, ...] = (),
) -> None:
    """A step taken back (in the chat or the Mini App): a proposal back in the fight is the
    GM's again — the private copy and the group's notice edited back in place (sent anew
    when gone), as after an adjustment — a proposal taken away is struck through (``before``:
    the fight before the undo; ``undone``: its events — a publication's result stays struck
    through), and the board, once."""
    await _gone(bot, game, before)
    view = view or await current_fight(game.id)
    if view is None:
        return
    fight = view.state
    if fight.proposal is not None:
        # a publication undone: the proposal is back where the published result was
        unpublished = any(isinstance(e, ev.ProposalPublished) for e in undone)
        await tell_proposal(bot, game, view, unpublished=unpublished)
    await render_board(bot, game, view)
