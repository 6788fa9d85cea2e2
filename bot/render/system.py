"""Console texts of the process itself (plain text, no HTML)."""

from __future__ import annotations

from aiogram.utils.i18n import I18n
from aiogram.utils.i18n import gettext as _
from pydantic import ValidationError

from bot.i18n import setup_i18n, translator


def no_token_message(locale: str = "ru") -> str:
    """What `python -m bot --help` prints: the playground, `--demo`, the token, the settings."""
    i18n = I18n.get_current(no_error=True) or setup_i18n()
    with translator(locale, i18n):
        return _(
            "Kosti is a Telegram bot and Mini App for tabletop role-playing games: dice, "
            "hidden rolls, initiative and sealed turns.\n"
            "\n"
            "    python -m bot           without BOT_TOKEN: the playground, the real bot "
            "and Mini App in a browser tab (http://127.0.0.1:8080/)\n"
            "    python -m bot --demo    the playground with every system's demo table "
            "laid out\n"
            "    python -m bot --help    this text\n"
            "\n"
            "With BOT_TOKEN it is the bot in Telegram. Get a token from @BotFather and put "
            "it in the environment or in the .env file:\n"
            "    BOT_TOKEN=123456:ABC...\n"
            "\n"
            "Optional settings (environment or .env; .env.example lists every one with its "
            "default):\n"
            "    DATABASE_URL    database (default sqlite://data/kosti.sqlite3; "
            "PostgreSQL: postgres://user:password@host/db)\n"
            "    REDIS_URL       several workers share live updates (default: one process)\n"
            "    BOT_API_URL     Bot API server (default https://api.telegram.org)\n"
            "    WEBHOOK_URL, WEBHOOK_SECRET  receive updates by an HTTPS webhook instead "
            "of polling\n"
            "    HOST, PORT      address of the web server (default 127.0.0.1:8080)\n"
            "    PUBLIC_URL      public HTTPS address of the web server: the Mini App "
            "needs it\n"
            "    MINI_APP_NAME   the Mini App's short name in @BotFather (default app)\n"
            "    DEFAULT_LOCALE  language of the bot: ru (default) or en\n"
            "    LOG_LEVEL       DEBUG, INFO (default), WARNING\n"
            "\n"
            "Trying the bot needs no tests. To check a change of the code: ./scripts/test "
            "(it runs for minutes)"
        )


def settings_error_message(error: ValidationError, locale: str = "ru") -> str:
    """What `python -m bot` prints when a setting has a wrong value (e.g. PORT=abc)."""
    i18n = I18n.get_current(no_error=True) or setup_i18n()
    problems = [
        f"    {'.'.join(str(part) for part in item['loc']).upper() or '?'}: {item['msg']}"
        for item in error.errors()
    ]
    with translator(locale, i18n):
        header = _("Some settings have wrong values (environment or .env):")
        footer = _("Fix them and start again. python -m bot --help lists every setting.")
    return "\n".join([header, *problems, footer])


def bad_token_message(locale: str = "ru") -> str:
    """BOT_TOKEN is set but is not a token at all, or Telegram refused it."""
    i18n = I18n.get_current(no_error=True) or setup_i18n()
    with translator(locale, i18n):
        return _(
            "BOT_TOKEN is not accepted: it must look like 123456:ABC... and be the current "
            "token from @BotFather (/token or /revoke there shows it)."
        )


def startup_failed_message(reason: str, locale: str = "ru") -> str:
    """The process could not start: the network, the database or the port refused."""
    i18n = I18n.get_current(no_error=True) or setup_i18n()
    with translator(locale, i18n):
        header = _("Kosti could not start:")
        footer = _(
            "Check BOT_API_URL and the network, DATABASE_URL, and that HOST:PORT is free. "
            "LOG_LEVEL=DEBUG shows more."
        )
    return "\n".join([header, "    " + reason, footer])


def dev_real_token_message(locale: str = "ru") -> str:
    """Development mode was asked for with a real token and without the second setting."""
    i18n = I18n.get_current(no_error=True) or setup_i18n()
    with translator(locale, i18n):
        return _(
            "Development mode is refused: KOSTI_DEV_INIT_DATA=1 is set together with a real "
            "BOT_TOKEN, and /dev/open would then sign Telegram data for any user and game.\n"
            "Unset KOSTI_DEV_INIT_DATA, or use a development token (123456:TEST-...), or, "
            "on a machine no one else can reach, also set KOSTI_DEV_ALLOW_REAL_TOKEN=1."
        )
