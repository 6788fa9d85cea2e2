"""Hidden rolls end to end (DESIGN.md decisions 4 and 6): store with a receipt, send the
result privately to the roller and the GM, post the sealed receipt to the game's chat; a
private message Telegram refuses (the user never started the bot) is kept as a pending
delivery and sent on their next /start; the GM's reveal posts the roll with a «Check»
button opening its verification page (webapp/receipts.py).

A `/hr` typed in the group shows its expression and comment to everyone: the command is
deleted when the bot may (bot.chat_rights) and the receipt then quotes nothing; when it may
not, the receipt answers the command as before and, once per chat, says where hidden rolls
belong and how to give the bot the right.

A roll and everything it tells the chats commit in one transaction (`step_and_its_chat`),
and nothing waits for Telegram: who never wrote to the bot cannot be written to first, so
their copy is kept pending at once and the receipt names them; a copy Telegram refuses anyway
(the bot blocked since) is kept once Telegram says so and the receipt is edited to name them
(`if_refused`). The same for the reveal and for the copies sent on /start.

Chat commands and the Mini App (bot.miniapp_hooks) share `deliver_hidden_roll` and
`post_reveal`."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError, TelegramBadRequest, TelegramForbiddenError
from aiogram.types import BufferedInputFile, Message, User
from aiogram.utils.i18n import I18n

from bot.board_message import post_in_game
from bot.chat_rights import ChatRights
from bot.i18n import translator
from bot.middlewares.flood import if_refused, step_and_its_chat
from bot.miniapp import current_miniapp
from bot.parsing import topic_of
from bot.render import hidden as texts
from bot.render.dice import render_result
from bot.render.keyboards import reveal_keyboard, start_link_keyboard, url_keyboard
from engine.dice import result_from_dict
from engine.dice.results import Serializable
from engine.receipt import receipt_payload
from engine.services import (
    add_pending_delivery,
    create_hidden_roll,
    get_game,
    get_language,
    get_user,
    receipt_content,
    reveal_roll,
)
from engine.services.game_settings import time_zone
from engine.services.types import GameInfo, RollRecord
from webapp.links import link_secret
from webapp.receipts import local_time, verify_path

log = logging.getLogger(__name__)


async def start_link(bot: Bot, payload: str = "hr") -> str:
    me = await bot.me()
    return f"https://t.me/{me.username}?start={payload}"


async def first_name(user_id: int | None) -> str:
    user = await get_user(user_id) if user_id is not None else None
    return user.first_name if user else "?"


async def publish_hidden_roll(
    *,
    bot: Bot,
    i18n: I18n,
    message: Message,
    roller: User,
    game: GameInfo,
    command: str,
    args: str,
    result: Serializable,
    rights: ChatRights | None = None,
) -> RollRecord:
    """`message` is the command: in the game's chat (`/hr`) or in the private chat.

    `rights` (for a command typed in the game's chat): delete the command once the roll is
    stored — not before, so a refusal can still answer it.

    The roll and all it tells the chats are one step (`step_and_its_chat`): what Telegram
    is asked and waited for (the bot's name for the start link, its right to delete) is
    asked before it."""
    here = rights if message.chat.id == game.chat_id else None  # typed in the game's chat
    await bot.me()  # the start link's username, kept from then on
    if here is not None:
        await here.may_delete(bot, message.chat.id)
    async with step_and_its_chat(bot):
        record = await create_hidden_roll(
            user_id=roller.id,
            game_id=game.id,
            chat_id=game.chat_id,
            topic_id=game.topic_id,
            command=command,
            args=args,
            result=result.to_dict(),
        )
        deleted = hint = False
        if here is not None:
            deleted = await here.delete(bot, message)
            hint = not deleted and here.first_hint(message.chat.id)
        await deliver_hidden_roll(
            bot,
            i18n,
            record,
            game,
            roller_name=roller.first_name,
            command_message=message,
            command_deleted=deleted,
            hint=hint,
        )
    return record


@dataclass
class _Receipt:
    """A hidden roll's sealed receipt in the game's chat: it names who could not be
    written to (the roller first), and is edited when a copy is refused later."""

    bot: Bot
    record: RollRecord
    game: GameInfo
    roller_name: str
    when: str
    link: str
    private: list[int]
    unreached: set[int]
    from_app: bool
    hint: bool
    message_id: int = 0

    async def text(self) -> str:
        parts = [texts.receipt(self.record, self.roller_name, self.when)]
        if self.from_app:
            parts.append(texts.made_in_app())
        for user_id in [u for u in self.private if u in self.unreached]:
            name = self.roller_name if user_id == self.record.user_id else await first_name(user_id)
            parts.append(texts.cannot_write_to(name))
        if self.hint:
            parts.append(texts.typed_in_group_hint())
        return "\n\n".join(parts)

    async def post(self, replied: Message | None) -> None:
        """In reply to the command `replied` (None: a message of its own)."""
        markup = start_link_keyboard(self.link) if self.unreached else None
        if replied is not None:
            posted = await replied.reply(await self.text(), reply_markup=markup)
        else:
            game = self.game
            posted = await post_in_game(self.bot, game, await self.text(), markup=markup)
        self.message_id = posted.message_id

    def naming(self, user_id: int) -> Callable[[], Awaitable[None]]:
        """What a refused copy to `user_id` does once Telegram says so: the receipt names
        them."""

        async def edit() -> None:
            self.unreached.add(user_id)
            await self.bot.edit_message_text(
                await self.text(),
                chat_id=self.game.chat_id,
                message_id=self.message_id,
                reply_markup=start_link_keyboard(self.link),
            )

        return edit


async def deliver_hidden_roll(
    bot: Bot,
    i18n: I18n,
    record: RollRecord,
    game: GameInfo,
    *,
    roller_name: str,
    command_message: Message | None = None,
    command_deleted: bool = False,
    hint: bool = False,
) -> None:
    """Send a stored hidden roll to the roller and the GM and post its sealed receipt.

    `command_message`: the chat command it answers (`/hr` in the group, or a roll in the
    private chat); None for a roll made in the Mini App — both copies go privately then.
    `command_deleted`: the `/hr` was removed from the group, so the receipt quotes nothing;
    `hint`: add the sentence on where hidden rolls belong (the command stays visible).

    Nothing here waits for Telegram's answer. Who never wrote to the bot cannot be written
    to first: their copy is kept pending at once and the receipt names them with the start
    link. A copy refused anyway (the bot blocked since) is kept pending once Telegram says
    so (`if_refused`), and the receipt is edited to name them."""
    in_game_chat = command_message is not None and command_message.chat.id == game.chat_id
    dm_roller = command_message is None or in_game_chat or record.user_id == game.gm_id
    private = [record.user_id] if dm_roller else []
    if game.gm_id not in (None, record.user_id):
        private.append(game.gm_id)
    unreached = {user_id for user_id in private if not await reachable(user_id)}
    for user_id in sorted(unreached):
        await add_pending_delivery(record.id, user_id)
    receipt = _Receipt(
        bot,
        record,
        game,
        roller_name,
        when=local_time(record.created_at, await time_zone(game.id)),
        link=await start_link(bot),
        private=private,
        unreached=unreached,
        from_app=command_message is None,
        hint=hint,
    )
    replied = command_message if in_game_chat and not command_deleted else None
    await receipt.post(replied)

    # Typed in the private chat: the line saying where the receipt went joins the message
    # that chat gets anyway (the roller's answer, or the GM's own copy) — one call, not two.
    told_in = command_message.chat.id if command_message and not in_game_chat else None
    where = texts.sent_to_game(record, game) if told_in is not None else None
    if not dm_roller:  # a player rolling in the private chat simply gets the answer there
        result_html = render_result(result_from_dict(record.result))
        text = texts.roller_copy(record, game, result_html)
        assert command_message is not None  # only a command typed in the private chat
        await command_message.reply(f"{text}\n\n{where}")
        where = None
    for user_id in private:
        if user_id not in unreached:
            note = where if user_id == told_in else None
            where = None if note else where
            await send_private_copy(
                bot, i18n, record, game, user_id, receipt.naming(user_id), note=note
            )
    if where is not None and command_message is not None:
        await command_message.answer(where)


async def reachable(user_id: int | None) -> bool:
    """Whether the bot may write to the user first (they wrote to it, as far as it knows)."""
    user = await get_user(user_id) if user_id is not None else None
    return user is not None and user.bot_started


async def send_private_copy(
    bot: Bot,
    i18n: I18n,
    record: RollRecord,
    game: GameInfo,
    user_id: int,
    then: Callable[[], Awaitable[None]] | None = None,
    *,
    note: str | None = None,
) -> None:
    """Send the roll to `user_id` in their language, `note` below it; refused, it is kept
    pending (`then` after that) — once Telegram says so, which the caller does not wait for.

    The GM's copy carries the «Reveal» button; the roller's copy shows the receipt."""
    roller_name = await first_name(record.user_id)
    with translator(await get_language(user_id), i18n):
        result_html = render_result(result_from_dict(record.result))
        if user_id == game.gm_id:
            text = texts.gm_copy(record, game, roller_name, result_html)
            markup = None if record.revealed_at else reveal_keyboard(record.id)
        else:
            text, markup = texts.roller_copy(record, game, result_html), None

    async def refused(error: TelegramAPIError) -> None:
        # 403: never started the bot, or blocked it; 400 "chat not found": never met at all.
        if not isinstance(error, TelegramForbiddenError) and not (
            isinstance(error, TelegramBadRequest) and "chat not found" in error.message
        ):
            log.warning("roll %s: the copy to user %s was refused: %s", record.id, user_id, error)
            return
        log.info("roll %s: cannot write to user %s, delivery kept", record.id, user_id)
        await add_pending_delivery(record.id, user_id)
        if then is not None:
            await then()

    if note is not None:
        text += "\n\n" + note
    async with if_refused(refused):
        await bot.send_message(user_id, text, reply_markup=markup)


async def deliver_pending(bot: Bot, i18n: I18n, user_id: int, records: list[RollRecord]) -> None:
    """Send rolls that waited for `user_id` (taken from the store); one refused is kept
    pending again."""
    for record in records:
        if record.game_id is None:
            continue
        game = await get_game(record.game_id)
        await send_private_copy(bot, i18n, record, game, user_id)


async def reveal(
    bot: Bot,
    *,
    roll_id: int,
    actor_id: int,
    reply_to: Message | None,
    gm_copy: Message | None = None,
) -> RollRecord:
    """The GM publishes a hidden roll in its game's chat (ServiceError if not allowed): the
    reveal, its post and the «Reveal» button taken off `gm_copy` (the GM pressed it) are one
    step; the hashed text's file, an upload, follows it."""
    async with step_and_its_chat(bot):
        record = await reveal_roll(roll_id, actor_id=actor_id)
        await post_reveal_text(bot, record, reply_to=reply_to)
        if gm_copy is not None:
            await gm_copy.edit_reply_markup(reply_markup=None)
    await post_reveal_file(bot, record)
    return record


def verify_url(bot: Bot, roll_id: int) -> str | None:
    """The check page of a revealed roll (webapp/receipts.py); None without an HTTPS
    PUBLIC_URL (Telegram takes only public addresses in URL buttons)."""
    miniapp = current_miniapp()
    public = miniapp.public_url if miniapp is not None else None
    if public is None or not public.startswith("https://"):
        return None
    i18n = I18n.get_current(no_error=True)
    lang = f"?lang={i18n.current_locale}" if i18n is not None else ""
    return public + verify_path(link_secret(bot.token), roll_id) + lang


async def post_reveal(bot: Bot, record: RollRecord, *, reply_to: Message | None = None) -> None:
    """Publish an already revealed roll: a roll line with a «Check» button opening the check
    page; without a public page, the hashed text as a file to check with sha256sum."""
    await post_reveal_text(bot, record, reply_to=reply_to)
    await post_reveal_file(bot, record)


async def post_reveal_text(bot: Bot, record: RollRecord, *, reply_to: Message | None) -> None:
    roller_name = await first_name(record.user_id)
    result_html = render_result(result_from_dict(record.result))
    when = local_time(record.created_at, await time_zone(record.game_id))
    text = texts.revealed(record, roller_name, result_html, when)
    url = verify_url(bot, record.id)
    markup = url_keyboard(texts.check_button(), url) if url else None
    in_place = reply_to is not None and (
        reply_to.chat.id == record.chat_id and topic_of(reply_to) == record.topic_id
    )
    if reply_to is not None and in_place:
        await reply_to.reply(text, reply_markup=markup)
    else:
        await bot.send_message(
            record.chat_id, text, message_thread_id=record.topic_id, reply_markup=markup
        )


async def post_reveal_file(bot: Bot, record: RollRecord) -> None:
    """Without a public check page, the hashed text as a file (an upload: Telegram's answer
    is waited for, so never inside a step's transaction)."""
    if verify_url(bot, record.id) is not None:
        return
    payload = receipt_payload(receipt_content(record), record.salt or "")
    document = BufferedInputFile(payload.encode("utf-8"), filename=texts.file_name(record))
    await bot.send_document(
        record.chat_id,
        document,
        caption=texts.revealed_file_caption(record),
        message_thread_id=record.topic_id,
    )
