"""The playground's words: the console lines and the page's strings (gettext, domain
"messages"; the page gets them translated with its state)."""

from __future__ import annotations

from aiogram.utils.i18n import gettext as _

from bot.i18n import translator
from bot.playground.demo import demo_list


def listening_line(url: str, locale: str = "ru") -> str:
    with translator(locale):
        return _("Kosti playground: {url} — open it in a browser; Ctrl+C stops it.").format(url=url)


def port_busy_line(host: str, port: int, locale: str = "ru") -> str:
    with translator(locale):
        return _(
            "The playground cannot start: {host}:{port} is already taken by another program. "
            "Stop it or choose another port, e.g. PORT={other} uv run python -m bot"
        ).format(host=host, port=port, other=port + 1)


def dev_mode_line(locale: str = "ru") -> str:
    with translator(locale):
        return _(
            "The playground does not use development mode: unset KOSTI_DEV_INIT_DATA and "
            "start it again."
        )


def page_texts(locale: str = "ru") -> dict[str, str]:
    with translator(locale):
        return {
            "title": _("Kosti playground"),
            "chats": _("Chats"),
            "you": _("You are"),
            "add_user": _("Add a user"),
            "new_user_name": _("Name of the new user"),
            "placeholder": _("Write a message…"),
            "send": _("Send"),
            "start": _("Start"),
            "not_started": _(
                "You have not opened the bot yet: until you press Start it cannot write to "
                "you (Telegram's rule)."
            ),
            "bot": _("bot"),
            "edited": _("edited"),
            "reply": _("Reply"),
            "cancel": _("Cancel"),
            "general": _("General"),
            "commands": _("Commands"),
            "miniapp": _("Mini App"),
            "close": _("Close"),
            "theme": _("Dark theme"),
            "demo": _("Demo tables"),
            "demo_done": _("The demo table is laid out in the group «{title}»."),
            "demo_done_topic": _("The demo table is laid out in the forum topic «{title}»."),
            "offline": _("No connection to the playground, reconnecting…"),
            "refused": _("Telegram refused: {reason}"),
            "link": _("Open the link {url}?"),
            "file": _("File"),
            "members": _("members: {count}"),
            "private": _("private chat with the bot"),
            "pinned": _("Pinned message"),
            "intro": _(
                "This is a playground: the real bot with its real Mini App, in one browser "
                "tab, without Telegram. Switch users above; type commands below (try /help)."
            ),
        }


def page_demos(locale: str = "ru") -> list[dict[str, str]]:
    """The demo tables' buttons: each system's title and its line."""
    with translator(locale):
        return demo_list()
