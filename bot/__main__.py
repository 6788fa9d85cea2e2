"""`python -m bot`: run Kosti. Without BOT_TOKEN it explains, in Russian, what to set."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys

from pydantic import ValidationError

from bot.settings import Settings


def main() -> int:
    try:
        settings = Settings()
    except ValidationError as exc:
        from bot.render.system import settings_error_message

        print(settings_error_message(exc), file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if settings.token is None:
        from bot.render.system import no_token_message

        print(no_token_message(settings.default_locale))
        return 0
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
