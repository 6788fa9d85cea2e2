"""Credentials never reach the access log: a WebSocket may authenticate with ``?tma=<initData>``
(api/ws.py), a credential valid for a day, and aiohttp's access logger writes the whole first
request line. A filter on its logger redacts the value, whichever runner (the bot's, tests,
benches) and log format serve the app."""

from __future__ import annotations

import logging
import re

ACCESS_LOGGER = "aiohttp.access"
REDACTED = "[redacted]"
# query parameters that carry signed Telegram data
_SECRET_QUERY = re.compile(r"([?&](?:tma|tgWebAppData)=)[^&\s\"]*", re.IGNORECASE)


def redact(text: str) -> str:
    return _SECRET_QUERY.sub(lambda m: m.group(1) + REDACTED, text)


class RedactCredentials(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        # the access logger formats its line itself: the message holds it, args are empty
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if record.args:
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        line = getattr(record, "first_request_line", None)
        if isinstance(line, str):
            record.first_request_line = redact(line)
        return True


def install(logger: logging.Logger | None = None) -> None:
    """Add the filter to the access logger once (create_app calls it for every app)."""
    target = logger or logging.getLogger(ACCESS_LOGGER)
    if not any(isinstance(f, RedactCredentials) for f in target.filters):
        target.addFilter(RedactCredentials())
