"""Texts of /start and /help, and the descriptions of the command menu."""

from __future__ import annotations

from aiogram.types import User
from aiogram.utils.i18n import gettext as _

from bot.render.common import name_of
from bot.render.dice import hidden_examples
from bot.render.games import newgame_example
from bot.render.miniapp import system_screens
from bot.systems import registry


def welcome(user: User | None) -> str:
    return _(
        "Hi, {name}! I am Kosti, a dice bot for tabletop role-playing games in Telegram.\n\n"
        "Here you can roll for yourself; rolls for a game you choose with /games become "
        "hidden rolls: you and the GM see them, the group gets a sealed receipt.\n"
        "Add me to your group and start a game there with /newgame. All commands: /help"
    ).format(name=name_of(user))


def group_start() -> str:
    return _("Kosti is here 🎲 Roll with <code>/r 2d6+1</code>, all commands: /help")


def help_menu() -> str:
    """The short /help: what the bot does and the sections behind the buttons."""
    return _(
        "<b>Kosti — dice for tabletop RPGs</b>\n"
        "<code>/r 2к6+1 удар мечом</code> — a roll; <code>/hr 2d6</code> — a hidden roll; "
        "<code>/newgame {example}</code> — a game in this chat.\n"
        "Commands are Latin letters only (Telegram does not take others). Choose a section:"
    ).format(example=newgame_example())


def help_sections() -> dict[str, tuple[str, str]]:
    """section key -> (button label, text), in the order of the buttons."""
    sections = {
        "rolls": (_("🎲 Rolls"), _rolls_help()),
        "hidden": (_("🔒 Hidden rolls"), _hidden_help()),
        "games": (_("👥 Games"), _games_help()),
    }
    for system in registry.installed():
        if system.help is not None:
            sections[system.code] = ("📖 " + system.title(), system.help())
    sections["app"] = (_("📱 Mini App"), miniapp_help())
    return sections


def help_text() -> str:
    """Every section in one text (what the buttons show one by one)."""
    return "\n\n".join(text for _label, text in help_sections().values())


def miniapp_help() -> str:
    screens = system_screens()
    opened = _(" ({screens})").format(screens=", ".join(screens)) if screens else ""
    return _(
        "<b>Mini App</b> — the boards, the dice roller and the roll feed of your game\n"
        "/app — a button that opens it: in a group for this chat's game{screens}, "
        "in the private chat for the game chosen with /games; also under /game and "
        "the boards, and the menu button of the private chat. Rolls made there appear in "
        "the chat, hidden rolls as receipts."
    ).format(screens=opened)


def _rolls_help() -> str:
    head = _(
        "<b>Rolls</b>\n"
        "Dice are written as d, к or д: <code>2d6</code> = <code>2к6</code> = <code>2д6</code>.\n"
        "<code>/r 2к6+1 удар мечом</code> — any roll, with a comment\n"
        "<code>/r 4d6kh3</code> — keep the 3 highest; <code>/r 6#4d6kh3</code> — six times\n"
        "<code>/r 2d6!</code> — exploding dice; <code>/r 7d10>=6f1</code> — count successes"
    )
    tail = _(
        "<code>/odds d8+1</code> — exact odds of a roll\n"
        "The «Reroll» button under a result works for the one who rolled."
    )
    systems = [s.rolls_help() for s in registry.installed() if s.rolls_help is not None]
    return "\n".join((head, *systems, tail))


def _hidden_help() -> str:
    return _(
        "<b>Hidden rolls</b>\n"
        "<code>/hr 2d6</code> — the result goes privately to you and the GM, the group gets "
        "a short receipt code; also {examples}\n"
        "<code>/reveal 12</code> — the GM reveals roll #12; its «Check» button shows that "
        "the result was not changed\n"
        "<code>/timezone Asia/Yekaterinburg</code> — the GM sets the game's time zone\n"
        "Start a private chat with me first (/start), or I cannot write to you."
    ).format(examples=hidden_examples())


def _games_help() -> str:
    return _(
        "<b>Games</b>\n"
        "<code>/newgame {example}</code> — a new game in this chat or topic "
        "(systems: {systems}); you are the GM\n"
        "/join — become a player; /game — the game, GM and players\n"
        "/gm — reply to someone's message to make them the GM; /endgame — end the game\n"
        "/games — in the private chat: where your private rolls go\n"
        "<code>/lang en</code> / <code>/lang ru</code> — language"
    ).format(
        example=newgame_example(),
        systems=", ".join(f"{s.aliases[0]}/{s.code}" for s in registry.installed()),
    )


def command_descriptions() -> list[tuple[str, str]]:
    """(command, description) for the Telegram command menu, in the current locale; a command
    two systems share (/board) is listed once, as the first of them describes it."""
    entries = [
        ("r", _("Roll dice: /r 2d6+1")),
        *(entry for system in registry.installed() for entry in system.rolls_menu()),
        ("hr", _("Hidden roll: /hr 2d6")),
        ("odds", _("Exact odds: /odds d8+1")),
        ("newgame", _("New game in this chat")),
        ("join", _("Join the game")),
        ("game", _("The game, GM and players")),
        ("games", _("Your games (private chat)")),
        ("app", _("Open the Mini App: boards and dice")),
        *(entry for system in registry.installed() for entry in system.menu()),
        ("lang", _("Language: /lang ru | en")),
        ("help", _("How to roll")),
    ]
    menu: dict[str, str] = {}
    for command, description in entries:
        menu.setdefault(command, description)
    return list(menu.items())
