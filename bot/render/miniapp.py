"""Texts of /app (opening the Mini App) and of the menu button."""

from __future__ import annotations

from aiogram.utils.i18n import gettext as _

from bot.render.games import game_title
from bot.systems import registry
from engine.services.types import GameInfo


def screen_name(screen: str) -> str:
    names = {
        "rolls": _("the roll feed"),
        "game": _("the game"),
        "roll": _("the dice roller"),
    }
    for system in registry.installed():
        names.update(system.screen_names())
    return names.get(screen, names["roll"])


def app_in_group(game: GameInfo, screen: str) -> str:
    return _(
        "📱 {title} in the Mini App: {screen}. The button opens it for anyone in this chat; "
        "rolls made there appear here too."
    ).format(title=game_title(game), screen=screen_name(screen))


def app_no_game_in_group() -> str:
    return _(
        "There is no game in this chat yet, so the Mini App shows your own games. The GM "
        "creates one with <code>/newgame &lt;system&gt; &lt;name&gt;</code>."
    )


def app_in_private(game: GameInfo | None) -> str:
    if game is None:
        return _("📱 The Mini App shows your games: open one to roll and watch its boards.")
    return _(
        "📱 The Mini App for {title}, the game your private rolls go to (/games). Hidden rolls "
        "made there reach you and the GM here, the group gets the receipt."
    ).format(title=game_title(game))


def system_screens() -> list[str]:
    """«<code>/app бой</code> — the initiative board» for each screen of an installed rule
    system (its first /app word)."""
    lines = []
    for system in registry.installed():
        names, seen = system.screen_names(), set()
        for word, screen in system.app_screens.items():
            if screen not in seen:
                seen.add(screen)
                lines.append(f"<code>/app {word}</code> — {names.get(screen, screen)}")
    return lines


def app_usage() -> str:
    choices = [
        _("<code>/app</code> — the dice roller"),
        *system_screens(),
        _("<code>/app броски</code> — the roll feed"),
    ]
    return _("Which screen? {choices}.").format(choices=", ".join(choices))


def menu_button_text() -> str:
    """The chat menu button of private chats (plain text, a few characters)."""
    return _("Kosti")
