"""Texts of setting up a fight and the character library."""

from __future__ import annotations

from aiogram.utils.i18n import gettext as _
from aiogram.utils.i18n import ngettext

from bot.render.common import quoted
from bot.render.texts import text as described
from engine.savage import Combatant
from engine.services.savage import CharacterRecord


def no_board() -> str:
    return _("No fight or chase is running here: the GM starts one with /fight or /chase.")


def fight_started() -> str:
    return _(
        "⚔️ The fight begins. Add fighters with /add (a saved character, "
        "<code>/add Пустой ×6</code> or a pasted text block), then deal with /next."
    )


def fight_ended(round_number: int) -> str:
    return _("The fight is over after round {round}. Its log is kept.").format(round=round_number)


def add_usage() -> str:
    return _(
        "Who joins the fight? <code>/add Ичиго</code>, <code>/add Пустой ×6</code>, several "
        "with commas: <code>/add Ичиго, Рукия</code>, or <code>/add</code> with a character "
        "block, e.g.\n"
        "<code>/add Гриммджо (Дикий) Ловкость d10, Сила d12; Драка d12; Защита 8, "
        "Стойкость 9 (1)</code>\n"
        "Reply to a player's message to make the character theirs."
    )


def add_several_summary(added: list[str], failed: list[tuple[str, str]]) -> str:
    """Below a multi-name /add: each name that was not added and why, then who was."""
    lines = [
        _("⚠️ Could not add: {name}. {reason}").format(name=quoted(name), reason=reason)
        for name, reason in failed
    ]
    if failed and added:
        names = ", ".join(quoted(name) for name in added)
        lines.append(_("Added to the fight: {names}.").format(names=names))
    elif failed:
        lines.append(_("Nobody was added."))
    return "\n".join(lines)


def several_names_hint(name: str) -> str | None:
    """`/add Ичиго Рукия` with no character of that whole name: several names go with
    commas (a name with a number, «Пустой 3», is one name)."""
    words = name.split()
    if len(words) < 2 or any(word.isdigit() for word in words):
        return None
    return _(
        "There is no character or template «{name}». Several names go with commas: "
        "<code>/add {example}</code>"
    ).format(name=quoted(name), example=quoted(", ".join(words)))


def char_usage() -> str:
    return _(
        "Save your character with a text block:\n"
        "<code>/char Ичиго (Дикий) Ловкость d8, Дух d8, Сила d10, Выносливость d8; "
        "Драка d10, Атлетика d8; Защита 7, Стойкость 8 (2); Бенни 3; Черты: Хладнокровие"
        "</code>\n<code>/char Ичиго</code> shows it, <code>/char Ичиго json</code> gives its "
        "JSON, <code>/char {...}</code> saves from JSON; /chars lists them all."
    )


def confirm_remove_group(group: Combatant) -> str:
    count = len(group.members)
    return ngettext(
        "Remove the whole group {name} ({count} fighter) from the fight?",
        "Remove the whole group {name} ({count} fighters) from the fight?",
        count,
    ).format(name=quoted(group.name), count=count)


def remove_group_yes() -> str:
    return _("🗑 Remove them all")


def remove_group_no() -> str:
    return _("Cancel")


def remove_group_cancelled() -> str:
    return _("Nobody was removed.")


def undone(count: int) -> str:
    return ngettext(
        "↩️ The last step is undone ({count} event).",
        "↩️ The last step is undone ({count} events).",
        count,
    ).format(count=count)


def sheet(record: CharacterRecord) -> str:
    return f"<code>{quoted(record.sheet)}</code>"


def sheet_not_yours(record: CharacterRecord) -> str:
    return _("The sheet of {name} is for the GM and the player it belongs to.").format(
        name=quoted(record.name)
    )


def sheet_sent_privately(record: CharacterRecord) -> str:
    return _("📄 The sheet of {name} is in your private chat with me.").format(
        name=quoted(record.name)
    )


def sheet_needs_private_chat() -> str:
    return _(
        "A sheet is sent privately, and you have not opened a private chat with me yet: "
        "open it, press Start and ask again."
    )


def sheet_json(payload: str) -> str:
    return f"<pre>{quoted(payload)}</pre>"


def json_caption(record: CharacterRecord) -> str:
    return _("{name} as JSON: send it back with /char to save it.").format(name=quoted(record.name))


def saved(record: CharacterRecord, *, private: bool = False) -> str:
    """The saved entry: its name, what the sheet kept without knowing it, the sheet."""
    head = _("💾 Saved: <b>{name}</b>. The GM adds it with <code>/add {name}</code>.")
    if private and record.template:
        head = _(
            "💾 NPC template saved: <b>{name}</b>. Players do not see it; in the game's group "
            "<code>/add {name}</code> brings it into the fight."
        )
    return "\n".join([head.format(name=quoted(record.name)), *warnings(record), sheet(record)])


def warnings(record: CharacterRecord) -> list[str]:
    return [f"⚠️ {described(w)}" for w in record.warnings]


def template_saved(record: CharacterRecord, *, sent: bool) -> str:
    """In the group, for an NPC template the GM pasted there: no stat block."""
    if sent:
        text = _(
            "💾 NPC template saved: <b>{name}</b>. Its sheet is in your private chat with me; "
            "next time paste NPCs there (the game chosen with /games), players never see them."
        )
    else:
        text = _(
            "💾 NPC template saved: <b>{name}</b>. To keep NPC sheets out of the group, open a "
            "private chat with me, press Start, choose the game with /games and paste them there."
        )
    return "\n".join([text.format(name=quoted(record.name)), *warnings(record)])


def library(records: list[CharacterRecord]) -> str:
    if not records:
        return _("No saved characters yet: save one with /char.")
    lines = [_("<b>Characters and templates</b>")]
    for record in records:
        kind = _("template") if record.template else _("player's")
        count = f" ×{record.count}" if record.count > 1 else ""
        lines.append(f"• {quoted(record.name)}{count} — {kind}")
    return "\n".join(lines)


def choose_game_for_sheets() -> str:
    return _(
        "Which game is the sheet for? Choose it with /games, then paste the sheet here: "
        "NPC templates saved here are never shown in the group."
    )
