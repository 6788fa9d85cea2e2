"""Texts of hidden rolls: the sealed receipt for the group, the private copies, the reveal."""

from __future__ import annotations

from aiogram import html
from aiogram.utils.i18n import gettext as _

from bot.render.common import bold_name, code, quoted
from bot.render.dice import hidden_usage
from engine.receipt import short_code
from engine.services.types import GameInfo, RollRecord


def hr_usage() -> str:
    return _("Write what to roll: {examples}.").format(examples=hidden_usage())


def hidden_needs_game() -> str:
    return _(
        "Hidden rolls belong to a game, and this chat has none. Start one first: "
        "<code>/newgame &lt;system&gt; &lt;name&gt;</code>."
    )


def choose_game_first() -> str:
    return _(
        "Private hidden rolls go to a game you choose: /games. In a group, use "
        "<code>/hr</code> right there."
    )


def not_a_member(game: GameInfo) -> str:
    return _(
        "Hidden rolls of {title} are for its GM and players: join with /join first. A roll "
        "just for yourself: /r in my private chat."
    ).format(title=html.bold(quoted(game.name)))


def typed_in_group_hint() -> str:
    return _(
        "Everyone here can read what follows /hr. Make hidden rolls in my private chat (choose "
        "the game with /games) or in the Mini App (/app). Or make me an administrator with the "
        "right to delete messages, and I will remove these commands myself."
    )


def receipt(record: RollRecord, roller_name: str, when: str) -> str:
    return _(
        "🔒 Hidden roll #{id}: {name}, {time}. Receipt code: {code}\n"
        "The GM reveals it with <code>/reveal {id}</code>; then anyone can check the code."
    ).format(
        name=bold_name(roller_name),
        id=record.id,
        time=when,
        code=code(short_code(record.receipt or "")),
    )


def made_in_app() -> str:
    return _("📱 Made in the Mini App.")


def cannot_write_to(name: str) -> str:
    return _(
        "I cannot write to {name} privately: they have not started me yet. Open the bot and "
        "press «Start» — the roll is kept and will arrive right away."
    ).format(name=bold_name(name))


def roller_copy(record: RollRecord, game: GameInfo, result_html: str) -> str:
    return (
        _("🔒 Your hidden roll #{id} in {title}").format(
            id=record.id, title=html.bold(quoted(game.name))
        )
        + "\n"
        + result_html
        + "\n"
        + _("Receipt code: {code}").format(code=code(short_code(record.receipt or "")))
    )


def gm_copy(record: RollRecord, game: GameInfo, roller_name: str, result_html: str) -> str:
    return (
        _("🔒 Hidden roll #{id} by {name} in {title}").format(
            id=record.id, name=bold_name(roller_name), title=html.bold(quoted(game.name))
        )
        + "\n"
        + result_html
        + "\n"
        + (
            _("Only you see it. Reveal it to the group with the button below.")
            if record.user_id == game.gm_id
            else _("Only you and the roller see it. Reveal it to the group with the button below.")
        )
    )


def sent_to_game(record: RollRecord, game: GameInfo) -> str:
    return _("The receipt of roll #{id} is posted in {title}.").format(
        id=record.id, title=html.bold(quoted(game.name))
    )


def reveal_usage() -> str:
    return _(
        "Write the roll number or its receipt code: <code>/reveal 12</code> or "
        "<code>/reveal 3f2a-9c1b-77d0</code>."
    )


def no_roll_with_code(code: str, *, several: bool) -> str:
    if several:
        return _(
            "Several hidden rolls have the code {code}: write the roll number, "
            "<code>/reveal 12</code>."
        ).format(code=html.quote(code))
    return _("No hidden roll waiting to be revealed in your games has the code {code}.").format(
        code=html.quote(code)
    )


def revealed(record: RollRecord, roller_name: str, result_html: str, when: str) -> str:
    """The reveal: the roll as a roll line; the check is behind the «Check» button."""
    return (
        _("🔓 Hidden roll #{id}: {name}, {time}. Receipt code: {code}").format(
            id=record.id,
            name=bold_name(roller_name),
            time=when,
            code=code(short_code(record.receipt or "")),
        )
        + "\n"
        + result_html
    )


def revealed_file_caption(record: RollRecord) -> str:
    """Without a public address for the check page: the hashed text goes as a file."""
    return _("Roll #{id}: the hashed text. Check: {command} must print {receipt}").format(
        id=record.id,
        command=code(f"sha256sum {file_name(record)}"),
        receipt=code(record.receipt or ""),
    )


def file_name(record: RollRecord) -> str:
    return f"kosti-roll-{record.id}.txt"


def check_button() -> str:
    return _("✅ Check")


def time_zone_is(zone: str) -> str:
    return _(
        "Times of this game are told in {zone}. The GM changes it: <code>/timezone "
        "Asia/Yekaterinburg</code>."
    ).format(zone=code(zone))


def time_zone_set(zone: str, now: str) -> str:
    return _("Time zone of the game: {zone} (now {now}).").format(zone=code(zone), now=now)


def revealed_toast() -> str:
    return _("Revealed in the group")
