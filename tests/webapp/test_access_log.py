"""The access log filter: signed Telegram data in a query is redacted, the rest is kept."""

from __future__ import annotations

import logging

import pytest

from webapp.access_log import RedactCredentials, install, redact


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "GET /api/games/g/ws?tma=user%3D1%26hash%3Dab HTTP/1.1",
            "GET /api/games/g/ws?tma=[redacted] HTTP/1.1",
        ),
        ("GET /ws?a=1&tma=x&b=2 HTTP/1.1", "GET /ws?a=1&tma=[redacted]&b=2 HTTP/1.1"),
        ("GET /ws?TMA=x HTTP/1.1", "GET /ws?TMA=[redacted] HTTP/1.1"),
        ('"GET /app/?tgWebAppData=q" 200', '"GET /app/?tgWebAppData=[redacted]" 200'),
        ("GET /api/me?stma=1 HTTP/1.1", "GET /api/me?stma=1 HTTP/1.1"),
        ("GET /healthz HTTP/1.1", "GET /healthz HTTP/1.1"),
    ],
)
def test_redact(line: str, expected: str):
    assert redact(line) == expected


def test_the_filter_rewrites_the_message_args_and_the_request_line():
    record = logging.LogRecord(
        "aiohttp.access", logging.INFO, "", 0, "%s ?tma=a", ("?tma=b",), None
    )
    record.first_request_line = "GET /ws?tma=c HTTP/1.1"
    assert RedactCredentials().filter(record) is True
    assert record.getMessage() == "?tma=[redacted] ?tma=[redacted]"
    assert record.first_request_line == "GET /ws?tma=[redacted] HTTP/1.1"


def test_install_adds_the_filter_once():
    logger = logging.getLogger("tests.access_log")
    install(logger)
    install(logger)
    assert sum(isinstance(f, RedactCredentials) for f in logger.filters) == 1
