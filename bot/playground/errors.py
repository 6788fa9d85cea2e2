"""A Bot API error answer (status and description, as Telegram words them)."""

from __future__ import annotations

from dataclasses import dataclass

FORBIDDEN_DESCRIPTION = "Forbidden: bot can't initiate conversation with a user"


@dataclass
class BotApiError(Exception):
    status: int
    description: str

    @classmethod
    def bad(cls, detail: str) -> BotApiError:
        return cls(400, f"Bad Request: {detail}")
