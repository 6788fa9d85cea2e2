"""The GM's review in the DM: both submissions and the proposed resolution side by side,
with the buttons that change a roll or a fighter's HP (each with a reason), publish the
turn, take back the last step, or remind the fighters who have not submitted."""

from __future__ import annotations

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup
from aiogram.utils.i18n import gettext as _

from bot.systems.duel.callbacks import DuelReviewCallback
from bot.systems.duel.render.labels import describe, name, title
from engine import duel
from engine.duel import DuelState
from engine.duel.describe import (
    describe_adjustment,
    describe_fighter,
    describe_step,
    describe_submission,
)

REASONS = 3


def reason_text(index: int) -> str:
    return [
        _("the situation in the fight"),
        _("a mistake in the roll"),
        _("the GM's ruling"),
    ][index % REASONS]


def review_text(state: DuelState) -> str:
    lines = [title(state), _("Turn {turn}: the GM's review").format(turn=state.turn)]
    fighters = {f.id: f for f in state.fighters}
    for f in state.fighters:
        sealed = state.sealed(f.id)
        lines.append("")
        if sealed is None:
            lines.append(
                _("⏳ {fighter} has not sent the turn yet.").format(fighter=name(state, f.id))
            )
            continue
        lines += [describe(state, d) for d in describe_submission(sealed.submission, fighters)]
        if sealed.submission.comment:
            lines.append(_("💬 Comment to the GM: {text}").format(text=sealed.submission.comment))
    if len(state.pending) < len(state.fighters):
        return "\n".join(lines)
    proposal = duel.propose(state)
    after = {f.id: f for f in proposal.after}
    lines += ["", _("Proposed resolution:")]
    lines += [describe(state, describe_step(s, after)) for s in proposal.steps]
    lines += [describe(state, describe_adjustment(a)) for a in proposal.adjustments]
    lines.append("")
    for f in proposal.after:
        lines += [describe(state, d) for d in describe_fighter(f)]
    return "\n".join(lines)


def _b(text: str, cb: DuelReviewCallback, **changes: object) -> InlineKeyboardButton:
    return InlineKeyboardButton(text=text, callback_data=cb.model_copy(update=changes).pack())


def review_keyboard(state: DuelState, game_id: int, thread: int) -> InlineKeyboardMarkup:
    cb = DuelReviewCallback(op="", game_id=game_id, thread=thread, turn=state.turn)
    rows: list[list[InlineKeyboardButton]] = []
    if len(state.pending) == len(state.fighters):
        proposal = duel.propose(state)
        rows.append([_b(_("✅ Publish turn {turn}").format(turn=state.turn), cb, op="publish")])
        for f in state.fighters:
            sealed = state.sealed(f.id)
            assert sealed is not None
            who = state.fighter(f.id).fighter.name
            dice = [
                _b(
                    f"🎲 {who} {i + 1}: {c.die.value}",
                    cb,
                    op="roll",
                    fighter=f.id,
                    action=i,
                    check=j,
                )
                for i, roll in enumerate(sealed.submission.rolls)
                for j, c in enumerate(roll.checks)
            ]
            rows += [dice[k : k + 3] for k in range(0, len(dice), 3)]
            hp = proposal.after_of(f.id).hp
            rows.append(
                [_b(_("❤️ {name}: HP {hp}").format(name=who, hp=hp), cb, op="hp", fighter=f.id)]
            )
    else:
        rows.append([_b(_("⏰ Remind the fighters"), cb, op="remind")])
    rows.append([_b(_("↩️ Undo the last step"), cb, op="undo")])
    return InlineKeyboardMarkup(inline_keyboard=rows)


def faces_keyboard(cb: DuelReviewCallback) -> InlineKeyboardMarkup:
    faces = [_b(str(n), cb, op="pick", field="roll", value=n) for n in range(1, 11)]
    return InlineKeyboardMarkup(
        inline_keyboard=[faces[:5], faces[5:], [_b(_("⬅️ Back"), cb, op="back")]]
    )


def hp_keyboard(cb: DuelReviewCallback, hp: int) -> InlineKeyboardMarkup:
    values = [_b(str(v), cb, op="pick", field="hp", value=v) for v in range(hp - 3, hp + 4)]
    return InlineKeyboardMarkup(
        inline_keyboard=[values[:4], values[4:], [_b(_("⬅️ Back"), cb, op="back")]]
    )


def reasons_keyboard(cb: DuelReviewCallback) -> InlineKeyboardMarkup:
    rows = [[_b(reason_text(i), cb, op="why", reason=i)] for i in range(REASONS)]
    rows.append([_b(_("⬅️ Back"), cb, op="back")])
    return InlineKeyboardMarkup(inline_keyboard=rows)
