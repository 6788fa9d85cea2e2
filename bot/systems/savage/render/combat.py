"""The initiative board of an encounter (one message the bot keeps editing) and its
inline keyboard, the turn announcement with the owners' mentions."""

from __future__ import annotations

from aiogram.types import InlineKeyboardButton
from aiogram.utils.i18n import gettext as _
from aiogram.utils.i18n import ngettext

from bot.render.common import quoted
from bot.render.keyboards import callback_button
from bot.render.limits import fit
from bot.systems.savage.callbacks import CombatCallback
from bot.systems.savage.render.combat_labels import card_text, condition_label, trait_label
from engine.savage import Character, Combatant, Encounter

MAX_BOARD_CHARS = 3800


def mention(user_id: int, first_name: str) -> str:
    return f'<a href="tg://user?id={user_id}">{quoted(first_name)}</a>'


def badges(character: Character) -> str:
    """Compact state: «🎲2 · Шок · 🩸2 · Усталость 1 · Отвлечён». The dead show only
    «погиб», an Extra who is out only «выбыл»: nothing else about them matters now."""
    s = character.status
    if s.dead:
        return "💀 " + _("dead")
    if s.incapacitated and not character.wild:
        return "✖ " + _("out")
    parts: list[str] = []
    if character.wild:
        parts.append(f"🎲{character.bennies}")
    if s.bleeding_out:
        parts.append("🩸 " + _("Bleeding Out"))
    elif s.incapacitated:
        parts.append("✖ " + _("out"))
    if s.shaken:
        parts.append("💫 " + _("Shaken"))
    if s.stunned:
        parts.append(_("Stunned"))
    if s.wounds:
        parts.append(
            "❤️‍🩹" + ngettext("{count} Wound", "{count} Wounds", s.wounds).format(count=s.wounds)
        )
    if s.fatigue:
        parts.append(_("Fatigue {level}").format(level=s.fatigue))
    for condition in s.conditions:
        label = condition_label(condition.kind)
        if condition.kind == "support":  # one bonus per trait it helps (seed 000 line 35)
            label = f"{label} {condition.value:+d}"
            if condition.skill:
                label += f" ({trait_label(condition.skill)})"
        parts.append(label)
    return " · ".join(parts)


def _character_line(character: Character) -> str:
    marks = badges(character)
    name = quoted(character.name)
    if character.status.out:
        name = f"<s>{name}</s>"
    return f"{name} {marks}".rstrip()


def _marker(state: Encounter, c: Combatant) -> str:
    if state.current == c.id:
        return "▶️"
    if c.hold:
        return "⏸"
    if c.id in state.suspended:  # interrupted: its turn goes on later, it has not acted
        return "⏳"
    if c.acted or not c.in_fight:
        return "✓"
    return "▫️"


def _combatant_lines(state: Encounter, c: Combatant) -> list[str]:
    card = card_text(c.card) if c.card is not None else ""
    head = f"{_marker(state, c)} {card} " if card else f"{_marker(state, c)} "
    hold = " " + _("(on Hold)") if c.hold else ""
    if len(c.members) == 1:
        line = head + _character_line(c.members[0]) + hold
        if state.current == c.id:
            line = f"<b>{head}{quoted(c.members[0].name)}</b> {badges(c.members[0])}{hold}"
        return [line.rstrip()]
    title = f"<b>{quoted(c.name)}</b>" if state.current == c.id else quoted(c.name)
    lines = [f"{head}{title}{hold}"]
    lines += [f"      {_character_line(m)}" for m in c.members]
    return lines


def board_text(state: Encounter, *, closed: bool = False) -> str:
    if closed:
        title = _("⚔️ <b>The fight is over</b> (round {round})").format(round=state.round)
    elif state.round == 0:
        title = _("⚔️ <b>Fight</b> — cards not dealt yet")
    else:
        title = _("⚔️ <b>Fight · round {round}</b>").format(round=state.round)
    lines = [title]
    ordered = list(state.order())
    on_hold = [c for c in state.combatants if c.card is None and c.hold]
    rest = [c for c in state.combatants if c.card is None and not c.hold]
    for c in ordered + on_hold:
        lines += _combatant_lines(state, c)
    if rest:
        if state.round:
            lines.append(_("No card:"))
        for c in rest:
            lines += _combatant_lines(state, c)
    if not state.combatants:
        lines.append(_("Nobody yet: the GM adds fighters with /add."))
    if state.pending is not None:
        who = state.character(state.pending.character).name
        lines.append(
            "⏳ "
            + ngettext(
                "{name}: {count} Wound waits — Soak with a benny or take it",
                "{name}: {count} Wounds wait — Soak with a benny or take them",
                state.pending.wounds,
            ).format(name=quoted(who), count=state.pending.wounds)
        )
    text = "\n".join(lines)
    return fit(text, MAX_BOARD_CHARS)  # at a line break, tags closed (bot/render/limits.py)


def board_rows(state: Encounter, game_id: int, seq: int) -> list[list[InlineKeyboardButton]]:
    """The board's own buttons: the GM's Next and Hold, Act now, Interrupt and Undo."""

    def button(text: str, action: str) -> InlineKeyboardButton:
        return callback_button(text, CombatCallback(action=action, game_id=game_id, seq=seq))

    rows: list[list[InlineKeyboardButton]] = []
    if state.pending is not None:
        rows.append([button(_("🛡 Soak"), "soak"), button(_("✔ Take it"), "take")])
    elif shaken_actor(state) is not None:  # a Shaken character's first business (line 69)
        rows.append([button(_("💫 Remove Shaken (benny)"), "unshake")])
    first = [button(_("▶️ Next") if state.round else _("▶️ Deal"), "next")]
    if state.current is not None:
        first.append(button(_("⏸ Hold"), "hold"))
    rows.append(first)
    # two a row, «Отменить» on its own: three labels in a row leave ~100 px each on a phone,
    # and «⚡ Действовать» is cut there (docs/playground.md)
    rows.append([button(_("⚡ Act now"), "act"), button(_("✋ Interrupt"), "interrupt")])
    rows.append([button(_("↩️ Undo"), "undo")])
    return rows


def shaken_actor(state: Encounter) -> Character | None:
    """The acting character when it is one Shaken Wild Card with a benny to spend."""
    acting = state.acting
    if acting is None or len(acting.members) != 1:
        return None
    character = acting.members[0]
    shaken = character.status.shaken and not character.status.out
    return character if shaken and character.wild and character.bennies > 0 else None


def turn_announcement(name: str, mentions: list[str], round_number: int) -> str:
    text = _("▶️ Round {round}: <b>{name}</b> acts.").format(round=round_number, name=quoted(name))
    if mentions:
        text += " " + ", ".join(mentions)
    return text
