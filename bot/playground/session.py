"""An aiogram session that answers the bot's Bot API calls in memory (no network, no port):
each method goes to bot/playground/botapi.py, and the answer is read back by aiogram's own
``check_response`` — the method's ``__returning__`` type, or the same exceptions
(TelegramForbiddenError, TelegramBadRequest...) a real Bot API answer raises."""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator
from typing import TYPE_CHECKING, Any

from aiogram.client.session.base import BaseSession
from aiogram.methods import TelegramMethod
from aiogram.methods.base import TelegramType
from aiogram.types import InputFile

from bot.playground.botapi import BotApi
from bot.playground.errors import BotApiError

if TYPE_CHECKING:
    from aiogram import Bot


class PlaygroundSession(BaseSession):
    def __init__(self, api: BotApi) -> None:
        super().__init__()
        self.botapi = api

    async def make_request(
        self, bot: Bot, method: TelegramMethod[TelegramType], timeout: int | None = None
    ) -> TelegramType:
        files: dict[str, InputFile] = {}
        params: dict[str, Any] = {}
        for key, value in method.model_dump(warnings=False).items():
            prepared = self.prepare_value(value, bot=bot, files=files, _dumps_json=False)
            if prepared is not None:
                params[key] = prepared
        for key, value in params.items():  # "attach://<key>": the file's name and bytes
            if isinstance(value, str) and value.startswith("attach://"):
                upload = files[value.removeprefix("attach://")]
                content = b"".join([chunk async for chunk in upload.read(bot)])
                params[key] = (upload.filename or "file", content)
        answer: dict[str, Any]
        try:
            status = 200
            answer = {"ok": True, "result": self.botapi.call(method.__api_method__, params)}
        except BotApiError as error:
            status = error.status
            answer = {"ok": False, "error_code": error.status, "description": error.description}
        response = self.check_response(bot, method, status, json.dumps(answer))
        return response.result  # type: ignore[return-value]  # checked as the method's type

    async def close(self) -> None:
        return None

    async def stream_content(
        self,
        url: str,
        headers: dict[str, Any] | None = None,
        timeout: int = 30,
        chunk_size: int = 65536,
        raise_for_status: bool = True,
    ) -> AsyncGenerator[bytes, None]:
        raise NotImplementedError("the playground stores no downloadable files")
        yield b""  # pragma: no cover
