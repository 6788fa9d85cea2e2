"""The process's log lines: text for people (the default), or one JSON object per line for a
host that queries its logs (`LOG_FORMAT=json`), each with the update being handled — its id,
chat and kind (bot/middlewares/watch.py) — when there is one.

The standard library's formatter is enough for this (no structlog): the lines come from
aiogram, aiohttp and the ORM as well as from here, all through `logging`. Secrets stay out
as they do in text: the token is never logged (aiogram prints the bot's id, not its token),
initData never reaches the access log (webapp/access_log.py); the formatter masks a token
that a third-party message might still carry."""

from __future__ import annotations

import json
import logging
import re
from datetime import UTC, datetime

from bot.middlewares.watch import handling

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
# a Bot API token (digits, a colon, 35 characters), as in a URL a library may log
_TOKEN = re.compile(r"(?<!\d)\d{5,}:[A-Za-z0-9_-]{30,}")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": _TOKEN.sub("<token>", record.getMessage()),
        }
        if (update := handling()) is not None:
            line |= {"update_id": update.update_id, "kind": update.kind, "chat": update.chat}
        if record.exc_info:
            line["error"] = _TOKEN.sub("<token>", self.formatException(record.exc_info))
        return json.dumps(line, ensure_ascii=False)


def configure(level: str, log_format: str) -> None:
    """The root logger's one handler, on standard error (unless logging is set up already)."""
    handler = logging.StreamHandler()
    if log_format == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter(TEXT_FORMAT))
    logging.basicConfig(level=level, handlers=[handler])
