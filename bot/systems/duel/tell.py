"""The chat side of a duel's steps, whichever surface made them: the thread gets the start,
the sealed receipts and the published posts (in the GM's language, as boards are); each
fighter's owner gets the submission form in the DM, the GM the review once both are in.
A DM Telegram refuses (the user never started the bot) is skipped: /turn asks again. Within
a step (`step_and_its_chat`) the step does not wait for a DM's answer: a refusal is logged
once the queue learns of it (`if_refused`)."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError
from aiogram.types import Message
from aiogram.utils.i18n import I18n

from bot.i18n import translator
from bot.middlewares.flood import if_refused
from bot.miniapp import current_miniapp
from bot.systems.duel.callbacks import form_stamp
from bot.systems.duel.render.form import closed_text, form_keyboard, form_text
from bot.systems.duel.render.labels import title
from bot.systems.duel.render.review import deadline_keyboard, review_keyboard, review_text
from bot.systems.duel.render.thread import (
    chunks,
    deadline_text,
    missing_text,
    post_text,
    sealed_text,
    start_text,
    stopped_text,
)
from engine import duel
from engine.duel import DuelState
from engine.receipt import short_code
from engine.services import get_language
from engine.services.duel import current_duel, thread_of
from engine.services.live import swap_live_message, take_live_messages
from engine.services.notify import Notification
from engine.services.types import GameInfo
from engine.services.updates import holding_effects
from webapp.links import link_secret
from webapp.systems.duel.verify import verify_path

log = logging.getLogger(__name__)


def receipt_links(
    bot: Bot, game: GameInfo, stream: str, published: duel.Published
) -> dict[str, str]:
    """Each revealed receipt's verification page (webapp/systems/duel/verify.py) by its short
    code; none without an HTTPS PUBLIC_URL (Telegram takes only public addresses)."""
    miniapp = current_miniapp()
    public = miniapp.public_url if miniapp is not None else None
    if public is None or not public.startswith("https://"):
        return {}
    secret = link_secret(bot.token)
    turn = published.proposal.turn
    receipts = [r.receipt for r in published.reveals] + [s.receipt for s in published.replaced]
    i18n = I18n.get_current(no_error=True)  # the post's language (the GM's)
    lang = f"?lang={i18n.current_locale}" if i18n is not None else ""
    return {
        short_code(r): public + verify_path(secret, game.id, stream, turn, r) + lang
        for r in receipts
    }


async def to_thread(bot: Bot, game: GameInfo, thread: int, text: str) -> None:
    for part in chunks(text):
        await bot.send_message(game.chat_id, part, message_thread_id=thread or None)


def player_of(game: GameInfo, state: DuelState, fighter: str) -> int | None:
    """Who submits for the fighter: its owner, or the GM."""
    owner = state.fighter(fighter).owner
    return owner if owner is not None else game.gm_id


async def send_form(bot: Bot, game: GameInfo, stream: str, state: DuelState, fighter: str) -> bool:
    """The form to the fighter's player; the copy sent before (/turn, /remind, a reminder at
    the deadline) is closed, so one form per player per turn is live. False: Telegram
    refused it (outside a step, whose caller says so; within one it is not waited for)."""
    user = player_of(game, state, fighter)
    if user is None:
        return False
    language = await get_language(user)
    with translator(language):
        text = form_text(state, fighter, (), 0)
        stamp = form_stamp(stream, state, fighter)
        markup = form_keyboard(state, fighter, stamp, game.id, thread_of(stream), (), 0)

    async def not_reached(error: TelegramAPIError) -> None:
        log.info("the form of fighter %s could not reach user %s: %s", fighter, user, error)

    sent: Message | None = None
    if holding_effects():  # a step's: queued with it, a refusal is the handler's
        async with if_refused(not_reached):
            sent = await bot.send_message(user, text, reply_markup=markup)
    else:  # /turn, /remind: their reply says whether it got there
        try:
            sent = await bot.send_message(user, text, reply_markup=markup)
        except TelegramAPIError as error:
            await not_reached(error)
    if sent is None:
        return False
    # a provisional id (the post still queued) is stored too: it gets the real one once sent
    old = await swap_live_message(game.id, stream, fighter, (user, sent.message_id))
    if old is not None:
        with translator(language):
            await _close(bot, old, closed_text(state, fighter, "replaced"))
    return True


async def close_forms(bot: Bot, game: GameInfo, stream: str, state: DuelState, why: str) -> None:
    """Every live form of the duel's turn ends (both turns are in, or the duel stopped): its
    buttons go, its text says so (with the receipt of a sealed turn)."""
    for fighter, ref in (await take_live_messages(game.id, stream)).items():
        with translator(await get_language(ref[0])):
            await _close(bot, ref, closed_text(state, fighter, why))


async def _close(bot: Bot, ref: tuple[int, int], text: str) -> None:
    async def not_closed(error: TelegramAPIError) -> None:  # deleted by the user, or closed
        log.info("the form %s in chat %s could not be closed: %s", ref[1], ref[0], error)

    async with if_refused(not_closed):
        await bot.edit_message_text(text, chat_id=ref[0], message_id=ref[1], reply_markup=None)


async def send_forms(
    bot: Bot, game: GameInfo, stream: str, state: DuelState, only: set[int] | None = None
) -> int:
    """The form to every fighter still to submit (of the users in `only`, if given)."""
    if state.over:
        return 0
    sent = 0
    for f in state.fighters:
        user = player_of(game, state, f.id)
        if (
            f.dead
            or state.sealed(f.id) is not None
            or (only is not None and (user is None or user not in only))
        ):
            continue
        sent += await send_form(bot, game, stream, state, f.id)
    return sent


async def send_review(bot: Bot, game: GameInfo, stream: str, state: DuelState) -> None:
    if game.gm_id is None:
        return
    with translator(await get_language(game.gm_id)):
        text, markup = review_text(state), review_keyboard(state, game.id, stream)

    async def not_reached(error: TelegramAPIError) -> None:
        log.info("the review of game %s could not reach its GM: %s", game.id, error)

    async with if_refused(not_reached):  # the step does not wait for the GM's DM
        for part in chunks(text)[:-1]:
            await bot.send_message(game.gm_id, part)
        await bot.send_message(game.gm_id, chunks(text)[-1], reply_markup=markup)


async def tell(
    bot: Bot, game: GameInfo, stream: str, events: Iterable[duel.Event], state: DuelState
) -> None:
    """Post what `events` did to the duel of `stream` (`state`: the duel after them)."""
    thread = thread_of(stream)
    locale = await get_language(game.gm_id) if game.gm_id is not None else None
    review = False
    for event in events:
        if isinstance(event, duel.Configured) and not state.history and not state.pending:
            with translator(locale):
                await to_thread(bot, game, thread, start_text(state))
            await send_forms(bot, game, stream, state)
        elif isinstance(event, duel.Submitted):
            with translator(locale):
                await to_thread(bot, game, thread, sealed_text(state, event.sealed))
            if len(state.pending) == len(state.fighters):
                review = True
                await close_forms(bot, game, stream, state, "in")
        elif isinstance(event, duel.TurnPublished):
            with translator(locale):
                links = receipt_links(bot, game, stream, event.published)
                await to_thread(bot, game, thread, post_text(state, event.published, links))
            await send_forms(bot, game, stream, state)
        elif isinstance(event, duel.Stopped):
            with translator(locale):
                await to_thread(bot, game, thread, stopped_text(state))
            await close_forms(bot, game, stream, state, "stopped")
        elif isinstance(event, duel.DeadlineSet):
            with translator(locale):
                await to_thread(bot, game, thread, deadline_text(state, event.deadline))
        elif isinstance(event, duel.DeadlinePassed):
            with translator(locale):
                await to_thread(bot, game, thread, missing_text(state, event))
            await _tell_gm_missing(bot, game, stream, state, event)
            if state.deadline is None or state.deadline.policy != "defend":
                await send_forms(bot, game, stream, state)  # a last reminder
    if review and len(state.pending) == len(state.fighters):
        await send_review(bot, game, stream, state)


async def _tell_gm_missing(
    bot: Bot, game: GameInfo, stream: str, state: DuelState, event: duel.DeadlinePassed
) -> None:
    """The GM learns who is silent; by the "ask" policy with a default defense's button each."""
    if game.gm_id is None or (state.deadline and state.deadline.policy == "defend"):
        return
    with translator(await get_language(game.gm_id)):
        text = "\n".join([title(state), missing_text(state, event)])
        markup = deadline_keyboard(state, game.id, stream)

    async def not_reached(error: TelegramAPIError) -> None:
        log.info("the deadline of game %s could not reach its GM: %s", game.id, error)

    async with if_refused(not_reached):  # the step does not wait for the GM's DM
        await bot.send_message(game.gm_id, text, reply_markup=markup)


async def board_sync(bot: Bot, game: GameInfo, note: Notification) -> None:
    """A duel step made in the Mini App, told in the chat as the chat's own steps are."""
    thread = int(note.info.get("thread") or 0)
    state, stream = note.info.get("state"), note.info.get("stream")
    if not isinstance(state, DuelState) or not isinstance(stream, str):
        view = await current_duel(game.id, thread)
        if view is None:
            return
        state, stream = view.state, view.stream
    await tell(bot, game, stream, tuple(note.info.get("events") or ()), state)
