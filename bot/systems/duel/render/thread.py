"""What the duel's thread gets: the start, the sealed receipts (who and when, nothing else),
the published turn as one forum post whose receipts are one short line each, linked to their
verification page (the hashed text is there, not in the topic)."""

from __future__ import annotations

import html
from collections.abc import Mapping

from aiogram.utils.i18n import gettext as _

from bot.render.common import quoted
from bot.systems.duel.render.labels import describe, title
from engine.duel import Deadline, DeadlinePassed, DuelState, format_sheet
from engine.duel.describe import (
    deadline_notice,
    dice_notice,
    missing_notice,
    published_post,
    sealed_notice,
    stopped_post,
)
from engine.duel.proposal import Published, Sealed

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


def post_text(
    state: DuelState, published: Published, links: Mapping[str, str] | None = None
) -> str:
    """The forum post of a published turn (``state``: the duel after it, for the names):
    each receipt one short line, with a link to its verification page (``links``: a
    receipt's short code → the page; none without a public HTTPS address)."""
    lines = []
    for d in published_post(published):
        line = describe(state, d)
        url = (links or {}).get(str(d.params.get("code", "")))
        if d.code.startswith("duel.receipt") and url:
            line += ' — <a href="{url}">{check}</a>'.format(
                url=html.escape(url, quote=True), check=_("check")
            )
        lines.append(line)
    if state.over:
        lines.append(_("🏁 The duel is over."))
    elif state.dice_seed:  # the next turn opens
        lines.append(dice_text(state))
    return "\n".join(lines)


def stopped_text(state: DuelState) -> str:
    """The GM stopped the duel: where the fighters stand, and the export offered."""
    lines = [describe(state, d) for d in stopped_post(state)]
    lines.append(_("The whole duel as text: /export"))
    return "\n".join(lines)


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
