"""What the duel's thread gets: the start, the sealed receipts (who and when, nothing else),
the published turn as one forum post, and the revealed receipts' check lines."""

from __future__ import annotations

from aiogram.utils.i18n import gettext as _

from bot.render.common import code, quoted
from bot.systems.duel.render.labels import describe, name, title
from engine.duel import Deadline, DeadlinePassed, DuelState, format_sheet
from engine.duel.describe import (
    deadline_notice,
    dice_notice,
    missing_notice,
    published_post,
    sealed_notice,
)
from engine.duel.proposal import Published, Sealed
from engine.receipt import receipt_payload, short_code

LIMIT = 4000  # a Telegram message holds 4096 characters


def dice_text(state: DuelState) -> str:
    """The line of a turn that opens: the hash of its dice seed (empty: none committed)."""
    return describe(state, dice_notice(state.turn, state.dice_seed)) if state.dice_seed else ""


def start_text(state: DuelState) -> str:
    lines = [title(state)]
    for f in state.fighters:
        lines.append(f"<pre>{quoted(format_sheet(f.fighter))}</pre>")
    lines.append(
        _("Send your turns in the DM with the bot: the form has come to each fighter "
          "(or /turn there). Neither of you sees the other's turn before both are in.")
    )  # fmt: skip
    if state.dice_seed:
        lines.append(dice_text(state))
    return "\n".join(lines)


def sealed_text(state: DuelState, sealed: Sealed) -> str:
    sub = sealed.submission
    notice = sealed_notice(sub.fighter, sub.turn, sealed.receipt, sealed.default)
    return describe(state, notice)


def deadline_text(state: DuelState, deadline: Deadline | None) -> str:
    return describe(state, deadline_notice(deadline))


def missing_text(state: DuelState, event: DeadlinePassed) -> str:
    return "\n".join(describe(state, missing_notice(f, event.turn)) for f in event.missing)


def post_text(state: DuelState, published: Published) -> str:
    """The forum post of a published turn (``state``: the duel after it, for the names)."""
    lines = [describe(state, d) for d in published_post(published)]
    if state.over:
        lines.append(_("🏁 The duel is over."))
    elif state.dice_seed:  # the next turn opens
        lines.append(dice_text(state))
    return "\n".join(lines)


def check_texts(state: DuelState, published: Published) -> list[str]:
    """Each revealed receipt's exact hashed string (README: «Проверка квитанции»), in
    messages that fit Telegram's limit."""
    sealed = [*published.replaced]
    by_fighter = {s.fighter: s for s in published.proposal.submissions}
    for r in published.reveals:
        sealed.append(Sealed(by_fighter[r.fighter], r.salt, r.receipt))
    head = _("🔍 The turn's receipts: <code>printf %s 'LINE' | sha256sum</code> gives each one.")
    out, current = [], head
    for s in sealed:
        line = quoted(receipt_payload(s.submission.to_dict(), s.salt))
        who = name(state, s.submission.fighter)
        # the code the topic saw when it was sealed, then the whole hash it begins
        block = f"\n{who} · {code(short_code(s.receipt))}: {code(s.receipt)}\n<code>{line}</code>"
        if len(current) + len(block) > LIMIT:
            out.append(current)
            current = ""
        current += block
    out.append(current)
    return out


def chunks(text: str) -> list[str]:
    """A long post split at line ends into messages that fit."""
    out, current = [], ""
    for line in text.split("\n"):
        if current and len(current) + len(line) + 1 > LIMIT:
            out.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    return [*out, current] if current else out
