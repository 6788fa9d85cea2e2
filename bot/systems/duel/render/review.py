"""The GM's review in the DM: both submissions and the proposed resolution side by side,
with the buttons that change any d10 or any value of a fighter after the turn (HP, SP, the
turns of exhaustion and bleeding, knocked down, actions lost or extra, the bonuses — what
the Mini App's review takes), each with a reason: one of three presets, or the GM's own in
a reply; publish the turn, take back the last step, or remind the fighters who have not
submitted."""

from __future__ import annotations

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup
from aiogram.utils.i18n import gettext as _

from bot.render import texts
from bot.render.keyboards import callback_button, keyboard
from bot.systems.duel.callbacks import DuelReviewCallback, review_stamp
from bot.systems.duel.render.labels import deadline_line, describe, name, title
from engine import duel
from engine.duel import DuelState, FighterState
from engine.duel.adjust import FIELDS as VALUE_FIELDS
from engine.duel.adjust import adjusted
from engine.duel.describe import (
    describe_adjustment,
    describe_fighter,
    describe_step,
    describe_submission,
)
from engine.services.duel import thread_of

REASONS = 3
# what the buttons' ``field`` counts: a d10, then the values the GM may set after the turn
FIELDS = ("roll", *VALUE_FIELDS)
COUNTS = frozenset({"exhausted_turns", "bleeding_turns", "lost_actions", "extra_actions"})
STEPS = (-10, -5, -3, -2, -1, 1, 2, 3, 5, 10)


def reason_text(index: int) -> str:
    return [
        _("the situation in the fight"),
        _("a mistake in the roll"),
        _("the GM's ruling"),
    ][index % REASONS]


def field_label(field: str) -> str:
    if field == "standing_up":
        return _("knocked down")
    return texts.template_text(f"duel_field.{field}")


def review_text(state: DuelState) -> str:
    lines = [title(state), _("Turn {turn}: the GM's review").format(turn=state.turn)]
    if (line := deadline_line(state)) is not None:
        lines.append(line)
    fighters = {f.id: f for f in state.fighters}
    changes = state.adjustments  # the dice the GM changed show their new faces
    for f in state.fighters:
        sealed = state.sealed(f.id)
        lines.append("")
        if sealed is None:
            lines.append(
                _("⏳ {fighter} has not sent the turn yet.").format(fighter=name(state, f.id))
            )
            continue
        shown = adjusted(sealed.submission, changes)
        lines += [describe(state, d) for d in describe_submission(shown, fighters)]
        if sealed.default:
            lines.append(_("🛡 The default defense, sealed after the deadline."))
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
    return callback_button(text, cb.model_copy(update=changes))


def base(state: DuelState, game_id: int, stream: str) -> DuelReviewCallback:
    return DuelReviewCallback(
        op="", game_id=game_id, thread=thread_of(stream), stamp=review_stamp(stream, state)
    )


def review_keyboard(state: DuelState, game_id: int, stream: str) -> InlineKeyboardMarkup:
    cb = base(state, game_id, stream)
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
                for i, roll in enumerate(adjusted(sealed.submission, state.adjustments).rolls)
                for j, c in enumerate(roll.checks)
            ]
            rows += [dice[k : k + 3] for k in range(0, len(dice), 3)]
            hp = proposal.after_of(f.id).hp
            rows.append(
                [
                    _b(_("❤️ {name}: HP {hp}").format(name=who, hp=hp), cb, op="val",
                       fighter=f.id, field=FIELDS.index("hp")),
                    _b(_("✏️ {name}: other values").format(name=who), cb, op="fields",
                       fighter=f.id),
                ]
            )  # fmt: skip
    else:
        rows.append([_b(_("⏰ Remind the fighters"), cb, op="remind")])
    rows.append([_b(_("↩️ Undo the last step"), cb, op="undo")])
    return keyboard(rows)


def deadline_keyboard(state: DuelState, game_id: int, stream: str) -> InlineKeyboardMarkup:
    """At the deadline: a default defense for each silent fighter (not when the duel's policy
    is to wait), and a reminder."""
    cb = base(state, game_id, stream)
    rows = []
    if state.deadline is None or state.deadline.policy != "wait":
        for f in state.missing():
            who = state.fighter(f).fighter.name
            label = _("🛡 Default defense: {name}").format(name=who)
            rows.append([_b(label, cb, op="default", fighter=f)])
    rows.append([_b(_("⏰ Remind the fighters"), cb, op="remind")])
    return keyboard(rows)


PRESETS = (12, 24, 48, 72)


def deadline_presets(state: DuelState, game_id: int, stream: str) -> InlineKeyboardMarkup:
    """Common deadlines by buttons (the duel's policy kept), and none."""
    cb = base(state, game_id, stream)
    policy = duel.POLICIES.index(state.deadline.policy) if state.deadline else 0
    hours = [_b(_("{n} h").format(n=n), cb, op="dl", value=n, reason=policy) for n in PRESETS]
    off = _b(_("No deadline"), cb, op="dl", value=0, reason=policy)
    return keyboard([hours, [off]])


def _back(cb: DuelReviewCallback) -> list[InlineKeyboardButton]:
    return [_b(_("⬅️ Back"), cb, op="back")]


def faces_keyboard(cb: DuelReviewCallback) -> InlineKeyboardMarkup:
    faces = [_b(str(n), cb, op="pick", field=0, value=n) for n in range(1, 11)]
    return keyboard([faces[:5], faces[5:], _back(cb)])


def _shown(field: str, value: object) -> str:
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return str(value)


def fields_keyboard(cb: DuelReviewCallback, after: FighterState) -> InlineKeyboardMarkup:
    """Every value of the fighter after the turn, each opening its values."""
    buttons = [
        _b(f"{field_label(f)}: {_shown(f, getattr(after, f))}", cb, op="val", field=i)
        for i, f in enumerate(FIELDS)
        if i
    ]
    rows = [buttons[k : k + 2] for k in range(0, len(buttons), 2)]
    return keyboard([*rows, _back(cb)])


def values_keyboard(cb: DuelReviewCallback, after: FighterState) -> InlineKeyboardMarkup:
    """The values around the current one (a yes or no for knocked down)."""
    field = FIELDS[cb.field]
    now = getattr(after, field)
    if field == "standing_up":
        values = [int(not now)]
    else:
        values = [now + d for d in STEPS if field not in COUNTS or now + d >= 0]
    buttons = [
        _b(_shown(field, bool(v) if field == "standing_up" else v), cb, op="pick", value=v)
        for v in values
    ]
    rows = [buttons[k : k + 5] for k in range(0, len(buttons), 5)]
    return keyboard([*rows, _back(cb)])


def reasons_keyboard(cb: DuelReviewCallback) -> InlineKeyboardMarkup:
    rows = [[_b(reason_text(i), cb, op="why", reason=i)] for i in range(REASONS)]
    rows.append(_back(cb))
    return keyboard(rows)


def change_text(state: DuelState, cb: DuelReviewCallback) -> str:
    """What the reasons' message says: the change, and that a reply gives the GM's own reason."""
    field = FIELDS[cb.field]
    if field == "roll":
        what = _("{fighter}, action {action}: the d10 shows {face}").format(
            fighter=name(state, cb.fighter), action=cb.action + 1, face=cb.value
        )
    else:
        shown = _shown(field, bool(cb.value) if field == "standing_up" else cb.value)
        what = f"{name(state, cb.fighter)}, {field_label(field)}: {shown}"
    return "\n".join(
        [
            _("✏️ The change: {what}.").format(what=what),
            _("Choose the reason, or reply to this message with your own."),
        ]
    )
