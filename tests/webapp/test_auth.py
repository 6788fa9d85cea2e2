"""initData validation as a pure function: signature, shape and age."""

from __future__ import annotations

import time
from urllib.parse import parse_qsl, urlencode

import pytest
from aiogram.utils.web_app import check_webapp_signature

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


def test_aiogram_accepts_what_we_sign():
    assert check_webapp_signature(TOKEN, init_for(1, start_param="g1-aaaaaaaaaaaa"))
    assert not check_webapp_signature("654321:OTHER", init_for(1))


def test_a_blank_field_is_refused_though_aiogram_leaves_it_out_of_the_signature():
    raw = init_for(1)
    assert check_webapp_signature(TOKEN, raw + "&start_param=")  # aiogram alone: unsigned, passes
    with pytest.raises(AuthError, match="auth_invalid"):
        check(raw + "&start_param=")


def test_a_non_ascii_hash_is_refused_before_aiogram_compares_it():
    fields = dict(parse_qsl(init_for(1)))
    with pytest.raises(AuthError, match="auth_invalid"):
        check(urlencode({**fields, "hash": "é" * 64}))


@pytest.mark.parametrize(
    "user_json",
    [
        '{"id":"5","first_name":"x"}',
        '{"id":5.0,"first_name":"x"}',
        '{"id":true,"first_name":"x"}',
        '{"id":0,"first_name":"x"}',
        '{"id":5,"first_name":7}',
        '{"id":5}',
    ],
)
def test_the_user_is_read_strictly(user_json: str):
    fields = {"auth_date": str(int(time.time())), "user": user_json}
    with pytest.raises(AuthError, match="auth_invalid"):
        check(urlencode({**fields, "hash": compute_hash(TOKEN, fields)}))


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
