"""Reading command arguments that are not dice notation (the dice engine reads that)."""

from __future__ import annotations

import re

from aiogram.types import Message

from bot.systems import registry
from engine.dice.commands import BY_WORD

# `/hr t d8`, `/hr p 7 6`: the first word picks the roll command, Latin or Russian.
HIDDEN_PREFIXES: dict[str, str] = {word: command.code for word, command in BY_WORD.items()}


def parse_system(word: str) -> str | None:
    """The system a /newgame word means, from the installed systems' aliases."""
    return registry.by_alias(word)


def split_newgame(args: str | None) -> tuple[str | None, str]:
    """'<word> Пустые земли' -> (the code of the system the word means, 'Пустые земли');
    an unknown system -> (None, ...)."""
    first, _, rest = (args or "").strip().partition(" ")
    return parse_system(first) if first else None, rest.strip()


def split_hidden(args: str) -> tuple[str, str]:
    """'t d8+1' -> ('t', 'd8+1'); anything else is general notation: ('r', args)."""
    first, _, rest = args.strip().partition(" ")
    command = HIDDEN_PREFIXES.get(first.lower())
    if command is not None and rest.strip():
        return command, rest.strip()
    return "r", args.strip()


def parse_roll_id(args: str | None) -> int | None:
    text = (args or "").strip().lstrip("#№")
    return int(text) if text.isdigit() and len(text) < 19 else None


RECEIPT_CODE = re.compile(r"[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}")


def parse_receipt_code(args: str | None) -> str | None:
    """The receipt code a group saw («a39b-7a3a-05cc», dashes optional, any case)."""
    text = (args or "").strip().lower()
    return text if RECEIPT_CODE.fullmatch(text) else None


def topic_of(message: Message) -> int | None:
    """The forum topic of a message; None outside forum topics (reply threads are not topics)."""
    return message.message_thread_id if message.is_topic_message else None


def replied_to(message: Message) -> Message | None:
    """The message this one answers, if the user replied to one. In a forum topic Telegram
    fills `reply_to_message` with the topic's first message (its creation) even when nothing
    was replied to: that is no reply."""
    reply = message.reply_to_message
    if reply is None or reply.forum_topic_created is not None:
        return None
    if message.is_topic_message and reply.message_id == message.message_thread_id:
        return None
    return reply


# `/app броски`: the Mini App screen to open (webapp.links.SCREENS); no word means the roller.
# A system adds its screens (`/app бой`).
APP_SCREENS: dict[str, str] = {
    "броски": "rolls",
    "лента": "rolls",
    "rolls": "rolls",
    "игра": "game",
    "game": "game",
    "кубы": "roll",
    "кости": "roll",
    "бросок": "roll",
    "roll": "roll",
}
DEFAULT_APP_SCREEN = "roll"


def parse_app_screen(args: str | None) -> str | None:
    """'бой' -> 'initiative'; nothing -> the roller; an unknown word -> None."""
    word = (args or "").strip().lower()
    if not word:
        return DEFAULT_APP_SCREEN
    for system in registry.installed():
        if word in system.app_screens:
            return system.app_screens[word]
    return APP_SCREENS.get(word)
