"""initData validation as a pure function: signature, shape and age."""

from __future__ import annotations

import time
from urllib.parse import parse_qsl, urlencode

import pytest

from tests.webapp.conftest import TOKEN, init_for
from webapp.auth import AuthError, compute_hash, credentials, sign_init_data, validate_init_data

DAY = 86400


def check(raw: str, **kw):  # type: ignore[no-untyped-def]
    return validate_init_data(raw, TOKEN, max_age=kw.pop("max_age", DAY), **kw)


def test_a_signed_value_round_trips():
    raw = sign_init_data(
        TOKEN,
        {"id": 42, "first_name": "Аня", "username": "anya", "language_code": "en"},
        int(time.time()),
        start_param="g1-aaaaaaaaaaaa",
        chat_type="group",
    )
    data = check(raw)
    assert (data.user.id, data.user.first_name, data.user.username) == (42, "Аня", "anya")
    assert data.user.language_code == "en"
    assert data.start_param == "g1-aaaaaaaaaaaa"
    assert data.chat_type == "group"


def test_the_data_check_string_follows_telegram():
    # The published algorithm: sorted "key=value" lines, hash excluded; signature included.
    fields = {"b": "2", "a": "1", "signature": "x", "hash": "ignored"}
    import hashlib
    import hmac

    key = hmac.new(b"WebAppData", TOKEN.encode(), hashlib.sha256).digest()
    expected = hmac.new(key, b"a=1\nb=2\nsignature=x", hashlib.sha256).hexdigest()
    assert compute_hash(TOKEN, fields) == expected


@pytest.mark.parametrize(
    ("age", "code"),
    [(DAY - 5, None), (DAY + 5, "auth_expired"), (-30, None), (-600, "auth_invalid")],
)
def test_age_limits(age: int, code: str | None):
    raw = init_for(1, auth_date=int(time.time()) - age)
    if code is None:
        assert check(raw).user.id == 1
    else:
        with pytest.raises(AuthError) as exc:
            check(raw)
        assert exc.value.code == code


def test_the_max_age_is_configurable():
    raw = init_for(1, auth_date=int(time.time()) - 120)
    with pytest.raises(AuthError, match="auth_expired"):
        check(raw, max_age=60)


def test_duplicated_keys_are_refused_even_when_one_copy_is_signed():
    raw = init_for(1)
    pairs = parse_qsl(raw)
    forged = urlencode([*pairs, ("user", '{"id":1002,"first_name":"x"}')])
    with pytest.raises(AuthError, match="auth_invalid"):
        check(forged)


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (None, None),
        ("tma abc", "abc"),
        ("TMA  abc ", "abc"),
    ],
)
def test_credentials(header: str | None, expected: str | None):
    assert credentials(header) == expected


@pytest.mark.parametrize(
    ("header", "code"), [("Bearer abc", "auth_invalid"), ("tma", "auth_missing")]
)
def test_bad_credentials(header: str, code: str):
    with pytest.raises(AuthError) as exc:
        credentials(header)
    assert exc.value.code == code
