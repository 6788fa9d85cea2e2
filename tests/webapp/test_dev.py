"""Development mode's edges: no start with a real token unless a second setting says so,
no /dev request through a proxy (no forwarding header trusted), a warning at every start."""

from __future__ import annotations

import logging

import pytest
from pydantic import SecretStr

from bot.settings import Settings
from webapp.app import create_app
from webapp.config import WebAppConfig
from webapp.dev import DEV_BOT_TOKEN, DevModeRefused, is_dev_token, is_forwarding_header

# the form @BotFather issues (a made-up secret)
REAL_LOOKING = "7312345678:AAHfiqksKZ8WmR2zSjiQ7_v4TMAKdiHm9T0"
DEV = WebAppConfig(_env_file=None, dev_init_data=True)


def settings(token: str | None) -> Settings:
    return Settings(_env_file=None, bot_token=SecretStr(token) if token else None)


@pytest.mark.parametrize(
    ("token", "dev"),
    [
        (DEV_BOT_TOKEN, True),
        ("123456:TEST-token", True),
        ("42:DEV-mine", True),
        ("123456:BENCH-token", True),
        (REAL_LOOKING, False),
        ("123456:test-lowercase", False),
        ("abc:TEST-token", False),
        ("123456:ABC-TEST-token", False),
    ],
)
def test_only_the_documented_dev_forms_are_dev_tokens(token: str, dev: bool):
    assert is_dev_token(token) is dev


def test_dev_mode_refuses_to_start_with_a_real_token():
    with pytest.raises(DevModeRefused, match="KOSTI_DEV_ALLOW_REAL_TOKEN"):
        create_app(settings(REAL_LOOKING), webapp_config=DEV)


def test_the_real_token_needs_the_second_setting_and_is_warned_about(caplog):
    config = WebAppConfig(_env_file=None, dev_init_data=True, dev_allow_real_token=True)
    with caplog.at_level(logging.WARNING, logger="webapp.app"):
        app = create_app(settings(REAL_LOOKING), webapp_config=config)
    assert any(r.canonical == "/dev/open" for r in app.router.resources())
    [warning] = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert "DEVELOPMENT MODE" in warning.getMessage()
    assert "REAL BOT TOKEN" in warning.getMessage()


def test_the_second_setting_alone_does_nothing():
    config = WebAppConfig(_env_file=None, dev_allow_real_token=True)
    app = create_app(settings(REAL_LOOKING), webapp_config=config)
    assert not any(r.canonical == "/dev/open" for r in app.router.resources())


@pytest.mark.parametrize("token", [None, DEV_BOT_TOKEN, "123456:TEST-token"])
def test_every_start_in_dev_mode_warns(caplog, token: str | None):
    for _ in range(2):
        with caplog.at_level(logging.WARNING, logger="webapp.app"):
            create_app(settings(token), webapp_config=DEV)
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 2
    assert all("DEVELOPMENT MODE" in w and "REAL BOT TOKEN" not in w for w in warnings)


def test_the_setting_is_read_from_the_environment(monkeypatch):
    monkeypatch.setenv("KOSTI_DEV_ALLOW_REAL_TOKEN", "1")
    assert WebAppConfig(_env_file=None).dev_allow_real_token is True
    monkeypatch.delenv("KOSTI_DEV_ALLOW_REAL_TOKEN")
    assert WebAppConfig(_env_file=None).dev_allow_real_token is False


# Spelled out here, not read from webapp.dev, so that dropping a header from the rule fails a test.
FORWARDING = [
    ("X-Forwarded-For", "203.0.113.9"),
    ("X-Forwarded-Host", "kosti.example"),
    ("X-Forwarded-Proto", "https"),
    ("X-Forwarded-Port", "443"),
    ("X-Forwarded-Server", "edge-1"),
    ("X-Forwarded-Prefix", "/kosti"),
    ("Forwarded", "for=203.0.113.9"),
    ("Via", "1.1 proxy.example"),
    ("X-Real-IP", "203.0.113.9"),
    ("X-Client-IP", "203.0.113.9"),
    ("True-Client-IP", "203.0.113.9"),
    ("CF-Connecting-IP", "203.0.113.9"),
    ("Fastly-Client-IP", "203.0.113.9"),
    ("X-Cluster-Client-IP", "203.0.113.9"),
    ("X-Original-Forwarded-For", "203.0.113.9"),
    ("Client-IP", "203.0.113.9"),
    ("X-ProxyUser-Ip", "203.0.113.9"),
    ("X-Envoy-External-Address", "203.0.113.9"),
    # header names are case-insensitive
    ("x-client-ip", "203.0.113.9"),
    ("TRUE-CLIENT-IP", "203.0.113.9"),
    ("cf-connecting-ip", "203.0.113.9"),
    ("x-FORWARDED-proto", "https"),
    ("VIA", "1.1 proxy.example"),
]
# What a browser on this machine sends: none of it is a forwarding header.
BROWSER = [
    "Host",
    "User-Agent",
    "Accept",
    "Accept-Language",
    "Accept-Encoding",
    "Referer",
    "Origin",
    "Cookie",
    "Connection",
    "Upgrade-Insecure-Requests",
    "X-Requested-With",
    "Sec-Fetch-Site",
]


@pytest.mark.parametrize(("header", "value"), FORWARDING)
async def test_dev_open_refuses_a_request_through_a_proxy(aiohttp_client, header, value):
    client = await aiohttp_client(create_app(settings(None), webapp_config=DEV))
    response = await client.get(
        "/dev/open?user=1&game=5", headers={header: value}, allow_redirects=False
    )
    assert response.status == 403
    body = await response.json()
    assert body["error"]["code"] == "dev_proxied"
    # no credentials minted: no redirect carrying signed initData
    assert "Location" not in response.headers
    assert "tgWebAppData" not in await response.text()


@pytest.mark.parametrize("header", [h for h, _ in FORWARDING])
def test_every_forwarding_header_is_one(header):
    assert is_forwarding_header(header)


@pytest.mark.parametrize("header", BROWSER)
def test_a_browsers_headers_are_not_forwarding_headers(header):
    assert not is_forwarding_header(header)


async def test_dev_open_still_answers_a_local_browser(aiohttp_client):
    client = await aiohttp_client(create_app(settings(None), webapp_config=DEV))
    response = await client.get(
        "/dev/open?user=1",
        headers={
            "User-Agent": "Mozilla/5.0",
            "Accept": "text/html",
            "Referer": "http://127.0.0.1/",
        },
        allow_redirects=False,
    )
    assert response.status == 302
    assert response.headers["Location"].startswith("/app/#tgWebAppData=")
