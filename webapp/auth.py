"""Telegram Mini App ``initData``: validation (signature, shape, age) and local signing.

Telegram signs the launch data: ``hash = HMAC_SHA256(key, data_check_string)`` where
``key = HMAC_SHA256("WebAppData", bot_token)`` and the data-check string is every other
``key=value`` pair, sorted by key, joined by ``\\n``. The signature is checked by aiogram's
``check_webapp_signature`` (constant-time) and the user read with aiogram's ``WebAppUser``;
what aiogram does not check is checked here, in front of it or after it (each step says why).
Signing (tests, development mode) stays here: aiogram has no signer.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode

from aiogram.utils.web_app import WebAppUser, check_webapp_signature
from pydantic import ValidationError

MAX_INIT_DATA = 4096  # real initData is well under 1 KB (with photo_url)
MAX_FIELDS = 32
_HASH = re.compile(r"[0-9a-f]{64}")
_DIGITS = re.compile(r"[0-9]{1,12}")


class AuthError(Exception):
    """`code`: auth_missing | auth_invalid | auth_expired; `reason` is for logs only."""

    def __init__(self, code: str, reason: str) -> None:
        self.code = code
        self.reason = reason
        super().__init__(f"{code}: {reason}")


@dataclass(frozen=True, slots=True)
class TgUser:
    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = None

    @property
    def display_name(self) -> str:
        return self.first_name or self.username or str(self.id)


@dataclass(frozen=True, slots=True)
class InitData:
    user: TgUser
    auth_date: int
    start_param: str | None
    chat_type: str | None
    chat_instance: str | None
    raw: str


def secret_key(bot_token: str) -> bytes:
    return hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()


def compute_hash(bot_token: str, fields: Mapping[str, str]) -> str:
    check = "\n".join(f"{k}={fields[k]}" for k in sorted(fields) if k != "hash")
    return hmac.new(secret_key(bot_token), check.encode(), hashlib.sha256).hexdigest()


def sign_init_data(
    bot_token: str,
    user: dict[str, Any],
    auth_date: int | None = None,
    start_param: str | None = None,
    **extra: object,
) -> str:
    """initData as Telegram would send it for `user` (tests, development mode); a blank
    field is left out, as Telegram does."""
    fields: dict[str, str] = {
        "auth_date": str(int(time.time()) if auth_date is None else auth_date),
        "user": json.dumps(user, ensure_ascii=False, separators=(",", ":")),
    }
    for key, value in {"start_param": start_param, **extra}.items():
        text = value if isinstance(value, str) or value is None else json.dumps(value)
        if text:
            fields[key] = text
    fields["hash"] = compute_hash(bot_token, fields)
    return urlencode(fields)


def _parse_pairs(raw: str) -> dict[str, str]:
    """The fields, parsed strictly in front of aiogram's check, which parses leniently."""
    if len(raw) > MAX_INIT_DATA:  # aiogram has no size limit
        raise AuthError("auth_invalid", "too long")
    try:
        pairs = parse_qsl(
            raw,
            keep_blank_values=True,
            strict_parsing=True,
            errors="strict",  # aiogram replaces bad UTF-8 with U+FFFD
            max_num_fields=MAX_FIELDS,  # aiogram has no field limit
        )
    except (ValueError, UnicodeDecodeError) as exc:
        raise AuthError("auth_invalid", f"not a query string: {exc}") from None
    fields: dict[str, str] = {}
    for key, value in pairs:
        if key in fields:  # aiogram would keep the last copy
            raise AuthError("auth_invalid", f"duplicated key {key!r}")
        if not value:  # aiogram drops blank pairs from the signed string: they go unsigned
            raise AuthError("auth_invalid", f"blank value of {key!r}")
        fields[key] = value
    return fields


def _parse_user(text: str) -> TgUser:
    """aiogram's WebAppUser in strict mode (its parse_webapp_init_data is lax: an id "5"
    would pass), plus a positive id."""
    try:
        user = WebAppUser.model_validate_json(text, strict=True)
    except ValidationError:
        raise AuthError("auth_invalid", "user is not a Telegram user object") from None
    if user.id <= 0:
        raise AuthError("auth_invalid", "user.id is not a positive integer")
    return TgUser(
        id=user.id,
        first_name=user.first_name[:255],
        last_name=user.last_name or None,
        username=user.username or None,
        language_code=user.language_code or None,
    )


def validate_init_data(
    raw: str | None,
    bot_token: str,
    *,
    max_age: int,
    future_skew: int = 60,
    now: float | None = None,
) -> InitData:
    """The validated launch data, or AuthError. The signature is checked before anything
    else is looked at, so a forged value never learns more than "invalid"."""
    if not raw:
        raise AuthError("auth_missing", "empty")
    fields = _parse_pairs(raw)
    # aiogram's compare_digest raises TypeError on a non-ASCII hash: only lowercase hex gets there
    if not _HASH.fullmatch(fields.get("hash", "")):
        raise AuthError("auth_invalid", "no hash")
    if not check_webapp_signature(bot_token, raw):
        raise AuthError("auth_invalid", "bad signature")
    # aiogram checks neither the shape of auth_date (its datetime takes "-5" and "1.5") nor the age
    auth_date_text = fields.get("auth_date", "")
    if not _DIGITS.fullmatch(auth_date_text):
        raise AuthError("auth_invalid", "bad auth_date")
    auth_date = int(auth_date_text)
    if "user" not in fields:
        raise AuthError("auth_invalid", "no user")
    user = _parse_user(fields["user"])
    now = time.time() if now is None else now
    if auth_date - now > future_skew:
        raise AuthError("auth_invalid", "auth_date in the future")
    if now - auth_date > max_age:
        raise AuthError("auth_expired", "auth_date too old")
    return InitData(
        user=user,
        auth_date=auth_date,
        start_param=fields.get("start_param"),
        chat_type=fields.get("chat_type"),
        chat_instance=fields.get("chat_instance"),
        raw=raw,
    )


def credentials(header: str | None) -> str | None:
    """initData from ``Authorization: tma <initData>``; None when the header is absent.

    AuthError for another scheme or an empty value."""
    if header is None:
        return None
    scheme, _, value = header.strip().partition(" ")
    if scheme.lower() != "tma":
        raise AuthError("auth_invalid", "not the tma scheme")
    value = value.strip()
    if not value:
        raise AuthError("auth_missing", "empty tma credentials")
    return value
