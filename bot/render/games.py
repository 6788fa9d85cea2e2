"""Texts of games and roles: /newgame, /game, /join, /gm, /games."""

from __future__ import annotations

from aiogram import html
from aiogram.utils.i18n import gettext as _
from aiogram.utils.i18n import ngettext

from bot.render.common import bold_name, quoted
from bot.systems import registry
from engine.services.types import GameInfo


def system_title(system: str) -> str:
    adapter = registry.get(system)
    return adapter.title() if adapter is not None else quoted(system)


def newgame_example() -> str:
    """/newgame's example in the help: the first installed system's that gives one."""
    return next((s.newgame_example for s in registry.installed() if s.newgame_example), "…")


def systems_list() -> str:
    """Each installed system as «<code>code</code> (<code>alias</code>, <code>alias</code>)»,
    for the usage texts."""
    return ", ".join(
        f"<code>{s.code}</code> (" + ", ".join(f"<code>{a}</code>" for a in s.aliases[:2]) + ")"
        for s in registry.installed()
    )


def game_title(game: GameInfo) -> str:
    return html.bold(quoted(game.name))


def newgame_usage() -> str:
    return _(
        "Usage: <code>/newgame &lt;system&gt; &lt;name&gt;</code>\n"
        "Systems: {systems}.\n"
        "Example: <code>/newgame {example}</code>"
    ).format(systems=systems_list(), example=newgame_example())


def group_only() -> str:
    return _("This command works in a group chat: add me to your game's group.")


def private_only() -> str:
    return _("This command works in the private chat with me.")


def no_game_here() -> str:
    return _(
        "There is no game in this chat yet. The GM creates one with "
        "<code>/newgame &lt;system&gt; &lt;name&gt;</code>."
    )


def game_created(game: GameInfo, gm_name: str) -> str:
    return _(
        "🎲 New game {title} — {system}.\n"
        "GM: {gm}.\n"
        "Players join with /join; hidden rolls: <code>/hr 2d6</code>."
    ).format(title=game_title(game), system=system_title(game.system), gm=bold_name(gm_name))


def game_card(game: GameInfo, names: dict[int, str]) -> str:
    gm = bold_name(names.get(game.gm_id, "?")) if game.gm_id is not None else _("nobody")
    if game.player_ids:
        players = ", ".join(bold_name(names.get(pid, "?")) for pid in game.player_ids)
    else:
        players = _("none yet — /join")
    count = len(game.player_ids)
    return (
        _("🎲 Game {title} (#{id})").format(title=game_title(game), id=game.id)
        + "\n"
        + _("System: {system}").format(system=system_title(game.system))
        + "\n"
        + _("GM: {gm}").format(gm=gm)
        + "\n"
        + ngettext("{count} player: {players}", "{count} players: {players}", count).format(
            count=count, players=players
        )
    )


def joined(game: GameInfo, name: str) -> str:
    return _("{name} joins {title} as a player.").format(
        name=bold_name(name), title=game_title(game)
    )


def already_member(game: GameInfo, name: str) -> str:
    return _("{name} is already in {title}.").format(name=bold_name(name), title=game_title(game))


def gm_usage() -> str:
    return _("Reply with /gm to a message of the person who becomes the GM.")


def gm_transferred(game: GameInfo, new_gm_name: str) -> str:
    return _("{name} is now the GM of {title}.").format(
        name=bold_name(new_gm_name), title=game_title(game)
    )


def game_ended(game: GameInfo) -> str:
    return _("Game {title} is over. A new one: /newgame.").format(title=game_title(game))


def no_games() -> str:
    return _("You are not in any game yet. In your group: /newgame to start one, /join to join.")


def games_menu(games: list[GameInfo], selected_id: int | None) -> str:
    lines = [_("Your games. Choose where the rolls you make here go (they become hidden rolls):")]
    for game in games:
        mark = "✅ " if game.id == selected_id else "• "
        where = f" — {quoted(game.chat_title)}" if game.chat_title else ""
        lines.append(f"{mark}{game_title(game)}{where} ({system_title(game.system)})")
    return "\n".join(lines)


def game_button(game: GameInfo, selected: bool) -> str:
    # Button labels are plain text: no HTML escaping.
    label = f"{game.name} — {game.chat_title}" if game.chat_title else game.name
    return ("✅ " if selected else "") + label[:60]


def game_selected(game: GameInfo) -> str:
    return _(
        "Rolls you make here now go to {title} as hidden rolls: you and the GM see the "
        "result, the group gets a sealed receipt."
    ).format(title=game_title(game))


def open_rolls_button(selected: bool) -> str:
    return ("✅ " if selected else "") + _("No game: my rolls here are open")


def open_rolls_selected() -> str:
    return _("Rolls you make here are ordinary open rolls again.")


def game_selected_toast(game: GameInfo) -> str:
    return _("Private rolls go to “{name}”").format(name=game.name)
