"""The reply language: the user's stored choice (/lang), else the configured default."""

from __future__ import annotations

from typing import Any

from aiogram.types import TelegramObject, User
from aiogram.utils.i18n import I18n, I18nMiddleware

from engine.services import UserInfo, get_language


class StoredLocaleMiddleware(I18nMiddleware):
    def __init__(self, i18n: I18n, *, default_locale: str) -> None:
        super().__init__(i18n)
        self.default_locale = (
            default_locale if default_locale in i18n.available_locales else i18n.default_locale
        )

    async def get_locale(self, event: TelegramObject, data: dict[str, Any]) -> str:
        info: UserInfo | None = data.get("user_info")
        user: User | None = data.get("event_from_user")
        if info is not None:
            stored = info.language
        else:
            stored = await get_language(user.id) if user is not None else None
        return stored if stored in self.i18n.available_locales else self.default_locale
