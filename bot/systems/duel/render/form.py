"""A fighter's submission form in the DM with the bot: the message and its buttons. What
the buttons offer is what the engine's `plan` accepts (every rule of the seed: SP,
exhaustion, a lost action, standing up, the extra action), so the form shows what is still
allowed; nothing needs typing."""

from __future__ import annotations

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup
from aiogram.utils.i18n import gettext as _

from bot.render.common import quoted
from bot.render.keyboards import keyboard
from bot.systems.duel import draft
from bot.systems.duel.callbacks import DuelFormCallback
from bot.systems.duel.render.labels import (
    ARROWS,
    action_label,
    deadline_line,
    fighter_lines,
    name,
    side,
    title,
)
from engine import duel
from engine.duel import Action, Attack, DuelState, FullDefense, Trick
from engine.duel.check import allowed_actions, plan
from engine.receipt import short_code

NOOP = "dl:noop"  # a label on the keyboard: answered with nothing
ROW = {"trick": "🎭", "block": "🛡", "dodge": "💨", "full_block": "🛡🛡", "full_dodge": "💨💨"}


def plan_or_none(state: DuelState, fighter: str, actions: tuple[Action, ...]) -> object | None:
    try:
        return plan(state, fighter, actions)
    except duel.DuelError:
        return None


def comment_prefix() -> str:
    return _("💬 Comment to the GM: {text}").split("{text}")[0]


def comment_of(text: str) -> str:
    """The comment a form message holds (the form keeps no state: its text carries it)."""
    prefix = comment_prefix()
    found = [line[len(prefix) :] for line in text.splitlines() if line.startswith(prefix)]
    return found[-1].strip()[:500] if found else ""


def form_text(
    state: DuelState,
    fighter: str,
    actions: tuple[Action, ...],
    stage: int,
    sent: str = "",
    comment: str = "",
) -> str:
    fs = state.fighter(fighter)
    lines = [title(state), _("Turn {turn}: the submission of {fighter}").format(
        turn=state.turn, fighter=name(state, fighter)
    )]  # fmt: skip
    lines += fighter_lines(state, fs)
    lines.append(_("Actions this turn: {n}").format(n=allowed_actions(fs)))
    if (line := deadline_line(state)) is not None:
        lines.append(line)
    if actions:
        lines.append(_("Declared:"))
        lines += [f"{i}. {action_label(a, fs)}" for i, a in enumerate(actions, start=1)]
        checked = plan(state, fighter, actions)
        lines.append(_("SP for the turn: {cost} (left: {sp})").format(
            cost=checked.cost, sp=checked.sp_after
        ))  # fmt: skip
        if checked.deficit:
            lines.append(
                _("⚠️ {deficit} SP more than there is: exhausted for {deficit} turn(s).").format(
                    deficit=checked.deficit
                )
            )
        spent = sum(a.ap_spent() for a in actions)
        if stage:
            lines.append(_("AP spread: {spent} of {total}").format(spent=spent, total=duel.TURN_AP))
    if comment:
        lines.append(_("💬 Comment to the GM: {text}").format(text=quoted(comment)))
    if sent:
        lines.append(sent)
        return "\n".join(lines)
    if not comment:
        lines.append(_("A comment to the GM: reply to this message with it."))
    if not stage:
        lines.append(_("Choose the next action.") if actions else _("Choose the first action."))
    else:
        lines.append(_("Spread the AP, then send the turn."))
    return "\n".join(lines)


def closed_text(state: DuelState, fighter: str, why: str) -> str:
    """A form that is no longer live, without buttons: ``why`` is ``replaced`` (a new copy
    was sent), ``in`` (both turns are in) or ``stopped`` (the GM stopped the duel)."""
    turn, who = state.turn, name(state, fighter)
    lines = [title(state)]
    if why == "replaced":
        lines.append(_("🔒 Turn {turn}, {fighter}: this form is closed, the new one is below.")
                     .format(turn=turn, fighter=who))  # fmt: skip
    elif why == "stopped":
        lines.append(_("🔒 Turn {turn}, {fighter}: the GM stopped the duel, this form is closed.")
                     .format(turn=turn, fighter=who))  # fmt: skip
    else:
        lines.append(_("🔒 Turn {turn}, {fighter}: both turns are in, this form is closed; "
                       "the GM publishes the turn.").format(turn=turn, fighter=who))  # fmt: skip
    sealed = state.sealed(fighter)
    if sealed is not None and why != "stopped":
        lines.append(_("Receipt of the sealed turn: <code>{receipt}</code>").format(
            receipt=short_code(sealed.receipt)
        ))  # fmt: skip
    return "\n".join(lines)


def _button(text: str, cb: DuelFormCallback, op: str, d: str) -> InlineKeyboardButton:
    data = cb.model_copy(update={"op": op, "draft": d}).pack()
    return InlineKeyboardButton(text=text, callback_data=data)


def _row_label(state: DuelState, fighter: str, row: str, first: bool) -> str:
    cls = state.fighter(fighter).fighter.fighter_class
    if row.startswith("attack:"):
        move = cls.move(row.split(":", 1)[1])
        label = move.name if move else row
        return ("⚔️ " if first else "⚔️+ ") + label
    words = {
        "trick": _("Trick"),
        "block": _("Block"),
        "dodge": _("Dodge"),
        "full_block": _("Full defense"),
        "full_dodge": _("Full dodge"),
    }
    return f"{ROW[row]} {words[row]}"


def form_keyboard(
    state: DuelState, fighter: str, stamp: str, game_id: int, thread: int,
    actions: tuple[Action, ...], stage: int,
) -> InlineKeyboardMarkup:  # fmt: skip
    """``stamp``: the turn's (callbacks.form_stamp); ``stage`` 0 while actions are added
    (their buttons, «To the AP»), 1 once the AP are spread (the steppers, «Send»)."""
    cls = state.fighter(fighter).fighter.fighter_class
    cb = DuelFormCallback(op="", game_id=game_id, thread=thread, fighter=fighter, stamp=stamp)
    d = draft.encode(actions, cls)
    rows: list[list[InlineKeyboardButton]] = []
    if stage == 0:
        # A kind with sides: its name on a row of its own (a phone cuts a long name shared
        # three to a row), then its sides, short; a trick: one button, the whole row.
        grouped: dict[str, list[InlineKeyboardButton]] = {}
        for row, action in draft.candidates(cls):
            if len(actions) >= draft.MAX_ACTIONS:
                break
            if plan_or_none(state, fighter, (*actions, action)) is None:
                continue
            label = _row_label(state, fighter, row, not actions)
            op = "+" + draft.encode_action(action, cls)
            if isinstance(action, Trick):
                grouped.setdefault(row, []).append(_button(label, cb, op, d))
                continue
            direction = action.direction
            text = f"{ARROWS[direction]} {side(direction)}"
            if row not in grouped:
                grouped[f"{row}:name"] = [_noop(label)]
            grouped.setdefault(row, []).append(_button(text, cb, op, d))
        rows += list(grouped.values())
        if actions:
            rows.append([_button(_("➡️ To the AP"), cb, "next", d)])
    else:
        rows += _ap_rows(state, fighter, actions, cb, d)
        rows.append([_button(_("✉️ Send the turn"), cb, "send", d)])
    if actions:
        rows.append([_button(_("↩️ Start over"), cb, "reset", "")])
    return keyboard(rows)


def _ap_rows(
    state: DuelState, fighter: str, actions: tuple[Action, ...], cb: DuelFormCallback, d: str
) -> list[list[InlineKeyboardButton]]:
    fs = state.fighter(fighter)
    rows = []
    for i, action in enumerate(actions):
        steppers = [("ap", _("AP {n}").format(n=action.ap))]
        if isinstance(action, Attack) and fs.fighter.fighter_class.ap_to_damage:
            steppers.append(("dm", _("to damage {n}").format(n=action.damage_ap)))
        if isinstance(action, Trick):
            steppers.append(("ez", _("difficulty −{n}").format(n=action.ease)))
        for what, label in steppers:
            sides = []
            for delta, sign in ((-1, "−"), (1, "+")):
                changed = list(actions)
                changed[i] = draft.bump(action, what, delta)
                ok = changed[i] != action and plan_or_none(state, fighter, tuple(changed))
                op = f"{what}{'+' if delta > 0 else '-'}{i}"
                sides.append(_button(sign, cb, op, d) if ok else _noop("·"))
            short = f"{i + 1}. {_kind_word(action)} · {label}"
            rows.append([sides[0], _noop(short), sides[1]])
    return rows


def _noop(text: str) -> InlineKeyboardButton:
    return InlineKeyboardButton(text=text, callback_data=NOOP)


def _kind_word(action: Action) -> str:
    if isinstance(action, Attack):
        return "⚔️" + ARROWS[action.direction]
    if isinstance(action, Trick):
        return "🎭"
    if isinstance(action, FullDefense):
        return ("💨💨" if action.dodge else "🛡🛡") + ARROWS[action.direction]
    return ("🛡" if action.kind == "block" else "💨") + ARROWS[action.direction]
