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
    from bot.runner import run

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run(settings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
