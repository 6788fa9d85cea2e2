"""The Bot API session: aiogram's aiohttp session with two costs taken out of every call.

- **Bodies are JSON**, the Bot API's other accepted body, instead of an urlencoded form.
  aiohttp percent-encodes every byte of a Cyrillic text and json-dumps each nested field on
  its own: a board edit's form took 0.21 ms to build, its JSON 0.10 ms. A call that uploads a
  file keeps aiogram's multipart form.
- **A keyboard the answer echoes is not read again.** Telegram answers a sent or edited
  message with the whole message, its inline keyboard included: the keyboard is the one the
  call sent, so the answer gets that object back instead of a dozen buttons validated anew
  (a board's answer: 0.14 ms → 0.05 ms). Failed calls are read by aiogram as before.

Kept as a subclass because aiogram has no switch for either; the values are prepared by
aiogram's own `prepare_value` (defaults such as the HTML parse mode, enums, dates, files).
"""

from __future__ import annotations

import json
from http import HTTPStatus
from typing import TYPE_CHECKING, Any, cast

from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.exceptions import TelegramNetworkError
from aiogram.methods import Response, TelegramMethod
from aiogram.methods.base import TelegramType
from aiogram.types import InlineKeyboardMarkup
from aiohttp import ClientError, ClientTimeout
from pydantic import ValidationError

if TYPE_CHECKING:
    from aiogram import Bot

JSON_HEADERS = {"Content-Type": "application/json"}
KEYBOARD = {"reply_markup"}


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class BotSession(AiohttpSession):
    def json_params(self, bot: Bot, method: TelegramMethod[Any]) -> dict[str, Any] | None:
        """The call's parameters for a JSON body (None: it uploads a file, so it goes as a
        form). What aiogram's form leaves out — empty and false values — is left out too."""
        files: dict[str, Any] = {}
        params: dict[str, Any] = {}
        # An inline keyboard holds only plain values (no defaults, files or dates): pydantic
        # dumps it in one pass, where `prepare_value` visits each of its ~10 fields a button.
        markup = getattr(method, "reply_markup", None)
        keyboard = markup if isinstance(markup, InlineKeyboardMarkup) else None
        fields = method.model_dump(warnings=False, exclude=KEYBOARD if keyboard else None)
        for key, value in fields.items():
            prepared = self.prepare_value(value, bot=bot, files=files, _dumps_json=False)
            if prepared:
                params[key] = prepared
        if keyboard is not None:
            params["reply_markup"] = keyboard.model_dump(exclude_none=True)
        return None if files else params

    def json_body(self, bot: Bot, method: TelegramMethod[Any]) -> str | None:
        params = self.json_params(bot, method)
        return None if params is None else dumps(params)

    async def make_request(
        self, bot: Bot, method: TelegramMethod[TelegramType], timeout: int | None = None
    ) -> TelegramType:
        body = self.json_body(bot, method)
        if body is None:
            return await super().make_request(bot, method, timeout)
        session = await self.create_session()
        url = self.api.api_url(token=bot.token, method=method.__api_method__)
        try:
            async with session.post(
                url,
                data=body.encode(),
                headers=JSON_HEADERS,
                timeout=ClientTimeout(total=self.timeout if timeout is None else timeout),
            ) as resp:
                raw_result = await resp.text()
        except TimeoutError as e:
            raise TelegramNetworkError(method=method, message="Request timeout error") from e
        except ClientError as e:
            raise TelegramNetworkError(method=method, message=f"{type(e).__name__}: {e}") from e
        response = self.check_response(
            bot=bot, method=method, status_code=resp.status, content=raw_result
        )
        return cast(TelegramType, response.result)

    def check_response(
        self, bot: Bot, method: TelegramMethod[TelegramType], status_code: int, content: str
    ) -> Response[TelegramType]:
        sent = getattr(method, "reply_markup", None)
        if not isinstance(sent, InlineKeyboardMarkup) or '"reply_markup"' not in content:
            return super().check_response(bot, method, status_code, content)
        try:
            data = self.json_loads(content)
        except ValueError:
            return super().check_response(bot, method, status_code, content)
        result = data.get("result") if isinstance(data, dict) else None
        ok = HTTPStatus.OK <= status_code <= HTTPStatus.IM_USED and data.get("ok") is True
        if not ok or not isinstance(result, dict) or "reply_markup" not in result:
            return super().check_response(bot, method, status_code, content)
        result["reply_markup"] = sent
        response_type = Response[method.__returning__]  # type: ignore[name-defined]  # a run-time type
        try:
            response = response_type.model_validate(data, context={"bot": bot})
        except ValidationError:  # aiogram's own reading says what is wrong
            return super().check_response(bot, method, status_code, content)
        return cast(Response[TelegramType], response)
