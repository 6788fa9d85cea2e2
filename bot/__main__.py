"""`python -m bot`: run Kosti. Without BOT_TOKEN it starts the playground (the real bot and
Mini App in a browser tab, bot/playground/); `--help` lists the settings; `--demo` starts the
playground with a demo table laid out."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys

from pydantic import ValidationError

from bot.settings import Settings

HELP_FLAGS = ("-h", "--help")
DEMO_FLAG = "--demo"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    try:
        settings = Settings()
    except ValidationError as exc:
        from bot.render.system import settings_error_message

        print(settings_error_message(exc), file=sys.stderr)
        return 2
    if any(flag in args for flag in HELP_FLAGS):
        from bot.render.system import no_token_message

        print(no_token_message(settings.default_locale))
        return 0
    if settings.token is None or DEMO_FLAG in args:
        return _playground(settings, demo=DEMO_FLAG in args)
    from bot.logs import configure

    configure(settings.log_level.upper(), settings.log_format)
    from aiogram.exceptions import TelegramNetworkError, TelegramUnauthorizedError
    from aiogram.utils.token import TokenValidationError, validate_token

    from bot.render.system import bad_token_message, startup_failed_message
    from bot.runner import run

    try:
        validate_token(settings.token)
    except TokenValidationError:
        print(bad_token_message(settings.default_locale), file=sys.stderr)
        return 2
    if refusal := _dev_mode_refusal(settings):
        print(refusal, file=sys.stderr)
        return 2
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(run(settings))
    except TelegramUnauthorizedError:
        print(bad_token_message(settings.default_locale), file=sys.stderr)
        return 2
    except (TelegramNetworkError, OSError, ConnectionError) as error:
        logging.getLogger("kosti").debug("start-up failed", exc_info=True)
        print(startup_failed_message(str(error), settings.default_locale), file=sys.stderr)
        return 1
    return 0


def _playground(settings: Settings, *, demo: bool) -> int:
    # One console line (the address) unless LOG_LEVEL asks for more.
    level = settings.log_level if "log_level" in settings.model_fields_set else "WARNING"
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from bot.playground.start import run_playground

    return run_playground(settings, demo=demo)


def _dev_mode_refusal(settings: Settings) -> str | None:
    """The console text when development mode may not start with this token (webapp/dev.py)."""
    from bot.render.system import dev_real_token_message, settings_error_message
    from webapp.config import WebAppConfig
    from webapp.dev import DevModeRefused, check_dev_mode

    try:
        check_dev_mode(WebAppConfig(), settings.token)
    except ValidationError as exc:
        return settings_error_message(exc, settings.default_locale)
    except DevModeRefused:
        return dev_real_token_message(settings.default_locale)
    return None


if __name__ == "__main__":
    sys.exit(main())
