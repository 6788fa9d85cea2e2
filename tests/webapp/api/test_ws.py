"""The socket's edges: a client gone before its auth message, the credential in the query."""

from __future__ import annotations

import asyncio
import json
import logging
from urllib.parse import quote

import pytest

from tests.webapp.conftest import GM_ID, init_for
from tests.webapp.test_api_auth import as_protocol


async def wait_for_access_line(caplog: pytest.LogCaptureFixture) -> logging.LogRecord:
    for _ in range(100):  # aiohttp writes the line once the handler has returned
        lines = [r for r in caplog.records if r.name == "aiohttp.access"]
        if lines:
            return lines[-1]
        await asyncio.sleep(0.02)
    raise AssertionError("no access log line")


async def test_a_socket_closed_before_its_auth_message_closes_quietly(client, gtoken, caplog):
    caplog.set_level(logging.INFO)
    ws = await client.ws_connect(f"/api/games/{gtoken}/ws")
    await ws.close()
    access = await wait_for_access_line(caplog)
    assert ws.close_code == 4401
    assert '" 101 ' in access.getMessage()  # the upgrade, not a 500
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]


async def test_an_authenticated_socket_still_closes_normally(client, gtoken):
    ws = await client.ws_connect(f"/api/games/{gtoken}/ws")
    await ws.send_str(json.dumps({"type": "auth", "initData": init_for(GM_ID)}))
    assert (await ws.receive_json(timeout=5))["type"] == "snapshot"
    await ws.close()
    assert ws.close_code == 1000


async def test_the_query_credential_is_redacted_in_the_access_log(client, gtoken, caplog):
    caplog.set_level(logging.INFO, logger="aiohttp.access")
    raw = init_for(GM_ID)
    ws = await client.ws_connect(f"/api/games/{gtoken}/ws?tma={quote(raw, safe='')}&x=1")
    assert (await ws.receive_json(timeout=5))["type"] == "snapshot"
    await ws.close()
    access = await wait_for_access_line(caplog)
    line = access.getMessage()
    assert f"/api/games/{gtoken}/ws?tma=[redacted]&x=1" in line
    signature = raw.rsplit("hash=", 1)[1]
    for secret in (signature, quote(raw, safe=""), "auth_date"):
        assert secret not in line
        assert secret not in str(vars(access))


async def test_initdata_in_the_subprotocol_brings_the_snapshot_unasked(client, gtoken, caplog):
    caplog.set_level(logging.INFO, logger="aiohttp.access")
    raw = init_for(GM_ID)
    credential = as_protocol(raw)
    ws = await client.ws_connect(f"/api/games/{gtoken}/ws", protocols=("kosti", credential))
    assert ws.protocol == "kosti"  # the one the server picks: never the credential
    snapshot = await ws.receive_json(timeout=5)  # nothing sent: no auth message
    assert snapshot["type"] == "snapshot" and snapshot["game"]["role"] == "gm"
    await ws.close()
    line = str(vars(await wait_for_access_line(caplog)))
    assert credential[4:40] not in line and raw.rsplit("hash=", 1)[1] not in line
