"""Forged, stale and tampered initData is refused on every API route (and the WebSocket),
before any handler runs."""

from __future__ import annotations

import base64
import json
import time
from urllib.parse import parse_qsl, quote, urlencode

import aiohttp
import pytest

from engine.store.models import RollLog
from tests.webapp.conftest import GM_ID, PLAYER_ID, TOKEN, init_for, user
from webapp.auth import MAX_INIT_DATA, compute_hash

NOW = int(time.time())
USER = json.dumps(user(PLAYER_ID), separators=(",", ":"))


def signed(fields: dict[str, str], token: str = TOKEN) -> str:
    """Any fields, correctly signed: the shape checks must refuse what the signature allows."""
    return urlencode({**fields, "hash": compute_hash(token, fields)})


def tamper(raw: str, key: str, value: str) -> str:
    return urlencode([(k, value if k == key else v) for k, v in parse_qsl(raw)])


def flip_hash(raw: str) -> str:
    pairs = dict(parse_qsl(raw))
    h = pairs["hash"]
    pairs["hash"] = ("0" if h[0] != "0" else "1") + h[1:]
    return urlencode(pairs)


def without(raw: str, key: str) -> str:
    return urlencode([(k, v) for k, v in parse_qsl(raw) if k != key])


def tma(raw: str) -> str:
    return "tma " + raw


VALID = init_for(PLAYER_ID)
# (case, Authorization header or None, expected code)
CASES: list[tuple[str, str | None, str]] = [
    ("missing header", None, "auth_missing"),
    ("empty tma value", "tma ", "auth_missing"),
    ("bearer scheme", "Bearer " + VALID, "auth_invalid"),
    ("basic scheme", "Basic dXNlcjpwYXNz", "auth_invalid"),
    ("no scheme", VALID, "auth_invalid"),
    ("bad hash", tma(flip_hash(VALID)), "auth_invalid"),
    ("hash of another token", tma(init_for(PLAYER_ID, token="654321:OTHER")), "auth_invalid"),
    (
        "user id changed",
        tma(tamper(VALID, "user", USER.replace(str(PLAYER_ID), str(GM_ID)))),
        "auth_invalid",
    ),
    (
        "user name changed",
        tma(tamper(VALID, "user", USER.replace("Аня", "Мастер"))),
        "auth_invalid",
    ),
    ("auth_date changed", tma(tamper(VALID, "auth_date", str(NOW + 1))), "auth_invalid"),
    ("start_param added", tma(VALID + "&start_param=g1-aaaaaaaaaaaa"), "auth_invalid"),
    ("expired (25 h)", tma(init_for(PLAYER_ID, auth_date=NOW - 25 * 3600)), "auth_expired"),
    ("future (1 h)", tma(init_for(PLAYER_ID, auth_date=NOW + 3600)), "auth_invalid"),
    ("missing hash", tma(without(VALID, "hash")), "auth_invalid"),
    (
        "uppercase hash",
        tma(tamper(VALID, "hash", dict(parse_qsl(VALID))["hash"].upper())),
        "auth_invalid",
    ),
    (
        "duplicated user",
        tma(VALID + "&" + urlencode({"user": USER.replace("1002", "1001")})),
        "auth_invalid",
    ),
    ("duplicated hash", tma(VALID + "&hash=" + "0" * 64), "auth_invalid"),
    ("non-JSON user", tma(signed({"auth_date": str(NOW), "user": "{id: 1002"})), "auth_invalid"),
    ("user is a list", tma(signed({"auth_date": str(NOW), "user": "[1002]"})), "auth_invalid"),
    (
        "user without id",
        tma(signed({"auth_date": str(NOW), "user": '{"first_name":"x"}'})),
        "auth_invalid",
    ),
    (
        "user id as string",
        tma(signed({"auth_date": str(NOW), "user": '{"id":"1002"}'})),
        "auth_invalid",
    ),
    ("user id negative", tma(signed({"auth_date": str(NOW), "user": '{"id":-5}'})), "auth_invalid"),
    ("no user", tma(signed({"auth_date": str(NOW)})), "auth_invalid"),
    ("no auth_date", tma(signed({"user": USER})), "auth_invalid"),
    (
        "auth_date not a number",
        tma(signed({"auth_date": "yesterday", "user": USER})),
        "auth_invalid",
    ),
    (
        "huge",
        tma(signed({"auth_date": str(NOW), "user": USER, "pad": "x" * MAX_INIT_DATA})),
        "auth_invalid",
    ),
    ("not a query string", "tma %%%garbage", "auth_invalid"),
    (
        "initDataUnsafe JSON",
        tma(json.dumps({"user": user(PLAYER_ID), "hash": "0" * 64})),
        "auth_invalid",
    ),
    ("bad UTF-8", tma(VALID.replace("user=", "user=%FF", 1)), "auth_invalid"),
    ("signed with an empty token", tma(init_for(PLAYER_ID, token="")), "auth_invalid"),
]


def routes(gtoken: str) -> list[tuple[str, str, dict | None]]:
    base = f"/api/games/{gtoken}"
    return [
        ("GET", "/api/me", None),
        ("GET", "/api/i18n/ru", None),
        ("GET", base, None),
        ("GET", base + "/rolls", None),
        ("GET", base + "/snapshot", None),
        ("POST", base + "/roll", {"command": "pool", "args": "5 6", "hidden": False}),
        ("POST", base + "/rolls/1/reveal", None),
    ]


def test_there_are_at_least_twenty_cases():
    assert len(CASES) >= 20


async def test_every_route_refuses_every_forged_value(client, gtoken, hooks):
    checked = 0
    for method, path, body in routes(gtoken):
        for case, header, code in CASES:
            headers = {} if header is None else {"Authorization": header}
            response = await client.request(method, path, json=body, headers=headers)
            data = await response.json()
            assert response.status == 401, (case, path, response.status, data)
            assert data["ok"] is False
            assert data["error"]["code"] == code, (case, path, data)
            assert data["error"]["message"]  # a Russian sentence
            checked += 1
    assert checked >= 20 * 7
    assert hooks.rolls == [] and await RollLog.all().count() == 0


async def test_the_messages_are_russian(client):
    data = await (await client.get("/api/me")).json()
    assert data["error"] == {
        "code": "auth_missing",
        "message": "Откройте приложение из Telegram: в запросе нет данных Telegram.",
    }


async def test_the_websocket_refuses_forged_values_in_the_header(client, gtoken):
    for case, header, _code in CASES[2:]:  # with a header present
        with pytest.raises(aiohttp.WSServerHandshakeError) as exc:
            await client.ws_connect(f"/api/games/{gtoken}/ws", headers={"Authorization": header})
        assert exc.value.status == 401, case


@pytest.mark.parametrize(
    "case", [c for c in CASES if c[1] and c[1].startswith("tma ")], ids=lambda c: c[0]
)
async def test_the_websocket_refuses_forged_values_in_the_first_message(client, gtoken, case):
    _, header, code = case
    ws = await client.ws_connect(f"/api/games/{gtoken}/ws")
    await ws.send_str(json.dumps({"type": "auth", "initData": header[4:]}))
    msg = await ws.receive_json(timeout=5)
    assert msg["type"] == "error" and msg["error"]["code"] == code
    closing = await ws.receive(timeout=5)
    assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    assert ws.close_code == 4401


async def test_the_websocket_refuses_a_forged_query_parameter(client, gtoken):
    forged = quote(flip_hash(VALID), safe="")
    with pytest.raises(aiohttp.WSServerHandshakeError) as exc:
        await client.ws_connect(f"/api/games/{gtoken}/ws?tma={forged}")
    assert exc.value.status == 401


async def test_the_websocket_needs_auth_first(client, gtoken):
    ws = await client.ws_connect(f"/api/games/{gtoken}/ws")
    await ws.send_str(json.dumps({"type": "resync"}))
    msg = await ws.receive_json(timeout=5)
    assert msg["error"]["code"] == "auth_missing"
    await ws.receive(timeout=5)
    assert ws.close_code == 4401


def as_protocol(raw: str) -> str:
    """The page's credential subprotocol (boot.js socketProtocols): unpadded base64url."""
    return "tma." + base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


@pytest.mark.parametrize(
    "case", [c for c in CASES if c[1] and c[1].startswith("tma ")], ids=lambda c: c[0]
)
async def test_the_websocket_refuses_forged_values_in_the_subprotocol(client, gtoken, case):
    _, header, code = case
    ws = await client.ws_connect(
        f"/api/games/{gtoken}/ws", protocols=("kosti", as_protocol(header[4:]))
    )
    msg = await ws.receive_json(timeout=5)
    assert msg["type"] == "error" and msg["error"]["code"] == code
    await ws.receive(timeout=5)
    assert ws.close_code == 4401  # the page stops: a refused handshake would make it retry


@pytest.mark.parametrize("value", ["tma.!!!", "tma.*" + "A" * 7000, "tma.gA"])
async def test_the_websocket_refuses_a_broken_subprotocol(client, gtoken, value):
    ws = await client.ws_connect(f"/api/games/{gtoken}/ws", protocols=("kosti", value))
    msg = await ws.receive_json(timeout=5)
    assert msg["error"]["code"] == "auth_invalid", value
    await ws.receive(timeout=5)
    assert ws.close_code == 4401
