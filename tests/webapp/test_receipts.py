"""The verification page of a revealed hidden roll: signed address, nothing before the
reveal, the exact hashed text, and in real Chromium the browser's own SHA-256 (✓, then ✗
once the text is edited)."""

from __future__ import annotations

import hashlib
import random
from typing import Any

from engine.dice import roll
from engine.receipt import short_code
from engine.services import create_hidden_roll, reveal_roll
from engine.services.game_settings import set_time_zone
from engine.services.types import GameInfo, RollRecord
from tests.webapp.browser import ARTIFACTS
from tests.webapp.conftest import GM_ID, PLAYER_ID, TOKEN
from tests.webapp.test_browser import browser  # noqa: F401  (the Chromium fixture)
from webapp.links import link_secret
from webapp.receipts import verify_path


async def _hidden_roll(game: GameInfo) -> RollRecord:
    result = roll("3d6+2 засада", random.Random(3))
    return await create_hidden_roll(
        user_id=PLAYER_ID,
        game_id=game.id,
        chat_id=game.chat_id,
        topic_id=None,
        command="r",
        args="3d6+2 засада",
        result=result.to_dict(),
    )


def _path(roll_id: int) -> str:
    return verify_path(link_secret(TOKEN), roll_id)


async def test_data_only_after_the_reveal_and_only_with_the_signed_address(
    client: Any, game: GameInfo
) -> None:
    record = await _hidden_roll(game)
    assert (await client.get(_path(record.id) + ".json")).status == 404  # not revealed yet
    await reveal_roll(record.id, actor_id=GM_ID)
    forged = _path(record.id).rsplit("-", 1)[0] + "-aaaaaaaaaaaa.json"
    assert (await client.get(forged)).status == 404

    answer = await client.get(_path(record.id) + ".json")
    assert answer.status == 200
    body = await answer.json()
    assert body["roll"]["receipt"] == record.receipt
    assert (
        body["roll"]["code"] == short_code(record.receipt or "") and len(body["roll"]["code"]) == 14
    )
    payload = body["roll"]["payload"]
    assert hashlib.sha256(payload.encode()).hexdigest() == record.receipt
    assert body["roll"]["command"].startswith("printf %s '") and "засада" in payload
    assert body["texts"]["title"] == f"Скрытый бросок №{record.id}"
    assert "Аня" in body["texts"]["who"] and "MSK" in body["texts"]["who"]
    english = await (await client.get(_path(record.id) + ".json?lang=en")).json()
    assert english["texts"]["title"] == f"Hidden roll #{record.id}"


async def test_the_game_time_zone_is_used(client: Any, game: GameInfo) -> None:
    await set_time_zone(game.id, actor_id=GM_ID, name="asia/yekaterinburg")
    record = await _hidden_roll(game)
    await reveal_roll(record.id, actor_id=GM_ID)
    body = await (await client.get(_path(record.id) + ".json")).json()
    assert "+05" in body["texts"]["who"] and "MSK" not in body["texts"]["who"]


async def test_the_browser_computes_the_check(
    browser: Any,  # noqa: F811
    aiohttp_server: Any,
    make_app: Any,
    game: GameInfo,
) -> None:
    server = await aiohttp_server(make_app())
    record = await _hidden_roll(game)
    await reveal_roll(record.id, actor_id=GM_ID)
    for dark in (False, True):
        context = await browser.new_context(
            viewport={"width": 390, "height": 844}, color_scheme="dark" if dark else "light"
        )
        page = await context.new_page()
        problems: list[str] = []
        page.on("pageerror", lambda e, seen=problems: seen.append(str(e)))
        await page.goto(str(server.make_url(_path(record.id))))
        status = page.locator("#status")
        await page.wait_for_selector("#status[data-result]", timeout=5000)
        assert await status.get_attribute("data-result") == "match"
        assert (await status.inner_text()).startswith("✓")
        assert await page.locator("#computed").inner_text() == record.receipt
        assert await page.locator("#code").inner_text() == short_code(record.receipt or "")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=ARTIFACTS / f"verify-{'dark' if dark else 'light'}.png")

        await page.locator("#payload").fill((await page.locator("#payload").input_value()) + " ")
        await page.wait_for_selector("#status[data-result='mismatch']", timeout=5000)
        assert (await status.inner_text()).startswith("✗")
        assert problems == []
        await context.close()
