"""Hints for commands the bot did not understand (bot/routers/fallback.py)."""

from __future__ import annotations

from aiogram.utils.i18n import gettext as _

from bot.render.common import code


def did_you_mean(command: str) -> str:
    return _("Unknown command. Did you mean {command}? All commands: /help").format(
        command=code(command)
    )


def latin_only(command: str) -> str:
    return _(
        "Telegram takes only Latin letters as commands. Did you mean {command}? All commands: /help"
    ).format(command=code(command))


def unknown_command() -> str:
    return _("I do not know this command. All commands: /help")


def spaced_die(command: str) -> str:
    return _("Write a die without spaces inside: {command}").format(command=code(command))
