"""Telegram Mini App ``initData``: validation (signature, shape, age) and local signing.

Telegram signs the launch data: ``hash = HMAC_SHA256(key, data_check_string)`` where
``key = HMAC_SHA256("WebAppData", bot_token)`` and the data-check string is every other
``key=value`` pair, sorted by key, joined by ``\\n``. We parse strictly ourselves (duplicated
keys, malformed pairs and oversized data are refused) rather than with aiogram's
``safe_parse_webapp_init_data``, which keeps the last of duplicated keys and does not check
the age.
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
    **extra: Any,
) -> str:
    """initData as Telegram would send it for `user` (tests, development mode)."""
    fields: dict[str, str] = {
        "auth_date": str(int(time.time()) if auth_date is None else auth_date),
        "user": json.dumps(user, ensure_ascii=False, separators=(",", ":")),
    }
    if start_param is not None:
        fields["start_param"] = start_param
    for key, value in extra.items():
        fields[key] = value if isinstance(value, str) else json.dumps(value)
    fields["hash"] = compute_hash(bot_token, fields)
    return urlencode(fields)


def _parse_pairs(raw: str) -> dict[str, str]:
    if len(raw) > MAX_INIT_DATA:
        raise AuthError("auth_invalid", "too long")
    try:
        pairs = parse_qsl(
            raw,
            keep_blank_values=True,
            strict_parsing=True,
            errors="strict",
            max_num_fields=MAX_FIELDS,
        )
    except (ValueError, UnicodeDecodeError) as exc:
        raise AuthError("auth_invalid", f"not a query string: {exc}") from None
    fields: dict[str, str] = {}
    for key, value in pairs:
        if key in fields:
            raise AuthError("auth_invalid", f"duplicated key {key!r}")
        fields[key] = value
    return fields


def _parse_user(text: str) -> TgUser:
    try:
        data = json.loads(text)
    except ValueError:
        raise AuthError("auth_invalid", "user is not JSON") from None
    if not isinstance(data, dict):
        raise AuthError("auth_invalid", "user is not an object")
    uid = data.get("id")
    if type(uid) is not int or uid <= 0:
        raise AuthError("auth_invalid", "user.id is not a positive integer")
    first_name = data.get("first_name", "")
    if not isinstance(first_name, str):
        raise AuthError("auth_invalid", "user.first_name is not a string")

    def opt(name: str) -> str | None:
        value = data.get(name)
        return value if isinstance(value, str) and value else None

    return TgUser(
        id=uid,
        first_name=first_name[:255],
        last_name=opt("last_name"),
        username=opt("username"),
        language_code=opt("language_code"),
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
    received = fields.get("hash", "")
    if not _HASH.fullmatch(received):
        raise AuthError("auth_invalid", "no hash")
    if not hmac.compare_digest(compute_hash(bot_token, fields), received):
        raise AuthError("auth_invalid", "bad signature")
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
        start_param=fields.get("start_param") or None,
        chat_type=fields.get("chat_type") or None,
        chat_instance=fields.get("chat_instance") or None,
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
