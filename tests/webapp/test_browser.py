"""The Mini App in real Chromium (Debian's, through Playwright): a roll made in one page
appears live in another; a hidden roll never reaches another player's page. Screenshots go
to test-artifacts/webapp/ (light and dark)."""

from __future__ import annotations

import random
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from engine.dice import roll
from engine.services import create_game, join_game, log_roll, touch_user
from tests.webapp.browser import ARTIFACTS, CHROMIUM_ARGS, IN_CI, chromium_path
from tests.webapp.conftest import GM_ID, OTHER_ID, PLAYER_ID, TOKEN, user
from webapp.auth import sign_init_data
from webapp.dev import DARK_THEME, LIGHT_THEME, launch_fragment
from webapp.keys import SOCKETS
from webapp.links import startapp_token


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    path = chromium_path()
    if path is None:
        message = "Chromium not found at /usr/bin/chromium (apt-get install -y chromium)"
        if IN_CI:
            pytest.fail(message + " — CI=true, so this is a failure", pytrace=False)
        pytest.skip(message)
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            await browser.close()


@pytest.fixture
async def server(db, aiohttp_server, make_app):  # type: ignore[no-untyped-def]
    return await aiohttp_server(make_app())


async def open_app(browser, server, user_id: int, start: str, *, dark: bool = False):  # type: ignore[no-untyped-def]
    context = await browser.new_context(
        viewport={"width": 390, "height": 844}, color_scheme="dark" if dark else "light"
    )
    page = await context.new_page()
    page.problems = []  # type: ignore[attr-defined]
    page.frames_received = []  # type: ignore[attr-defined]
    page.on("console", lambda m: m.type == "error" and page.problems.append(m.text))
    page.on("pageerror", lambda e: page.problems.append(str(e)))
    page.frames_sent = []  # type: ignore[attr-defined]

    def watch(ws: Any) -> None:
        ws.on("framereceived", lambda f: page.frames_received.append(f))
        ws.on("framesent", lambda f: page.frames_sent.append(f))

    page.on("websocket", watch)
    init = sign_init_data(TOKEN, user(user_id), int(time.time()), start_param=start)
    theme = DARK_THEME if dark else LIGHT_THEME
    url = f"{server.make_url('/app/')}#{launch_fragment(init, theme=theme, start_param=start)}"
    await page.goto(url)
    await page.wait_for_selector("body[data-ready='1']", timeout=5000)
    return page


async def main_button_shows(page, text: str) -> None:  # type: ignore[no-untyped-def]
    """Telegram's MainButton carries ``text`` (not pressed); the page has no button of its
    own for that action (one primary action, issue 27)."""
    shown = "t => (b => b?.isVisible && b.text === t)(window.Telegram?.WebApp?.MainButton)"
    await page.wait_for_function(shown, arg=text, timeout=5000)
    assert await page.get_by_role("button", name=text).count() == 0


async def press_main_button(page, text: str) -> None:  # type: ignore[no-untyped-def]
    """Telegram's MainButton, as the SDK shows it, pressed as a Telegram client does."""
    await main_button_shows(page, text)
    await page.evaluate("() => window.Telegram.WebView.receiveEvent('main_button_pressed')")


async def test_a_roll_made_in_one_page_appears_live_in_another(browser, server, game, gtoken):
    player = await open_app(browser, server, PLAYER_ID, gtoken)
    gm = await open_app(browser, server, GM_ID, gtoken, dark=True)
    assert await player.get_by_role("heading", name="Тени Чикаго").is_visible()
    await player.get_by_label("Количество кубиков").fill("6")
    await player.get_by_label("Сложность").fill("7")
    await player.get_by_label("Комментарий").fill("Атака мечом <b>x</b>")
    await press_main_button(player, "Сделать бросок")

    card = gm.locator("li.roll", has_text="Атака мечом <b>x</b>")  # inserted as text
    await card.wait_for(timeout=3000)
    assert "Кубиков: 6, сложность 7" in await card.inner_text()
    await player.locator("li.roll", has_text="Атака мечом").wait_for(timeout=3000)
    assert await gm.locator("li.roll b").count() == 0

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    await player.screenshot(path=str(ARTIFACTS / "game-light.png"), full_page=True)
    await gm.screenshot(path=str(ARTIFACTS / "game-dark.png"), full_page=True)
    assert await gm.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(15, 15, 15)"
    assert player.problems == [] and gm.problems == []


async def test_the_page_authenticates_its_socket_in_the_handshake(browser, server, game, gtoken):
    """The snapshot comes with the handshake's answer (initData as a subprotocol): the page
    sends no auth message, on opening nor on reconnecting after the server dropped it."""
    page = await open_app(browser, server, PLAYER_ID, gtoken)

    def snapshots() -> int:
        return sum('"type": "snapshot"' in str(f) for f in page.frames_received)

    assert snapshots() == 1
    await page.locator(".status-live").wait_for(timeout=3000)  # the socket's copy came too
    for ws in list(server.app[SOCKETS]):
        await ws.close(code=1012)  # a restart: the page reconnects
    for _ in range(100):
        if snapshots() == 2:
            break
        await page.wait_for_timeout(50)
    assert snapshots() == 2
    await page.locator(".status-live").wait_for(timeout=3000)
    assert page.frames_sent == []
    assert await page.get_by_role("heading", name="Тени Чикаго").is_visible()
    assert page.problems == []


async def test_a_hidden_roll_never_reaches_another_players_page(browser, server, game, gtoken):
    gm = await open_app(browser, server, GM_ID, gtoken)
    other = await open_app(browser, server, OTHER_ID, gtoken, dark=True)
    roller = await open_app(browser, server, PLAYER_ID, gtoken)
    await roller.get_by_role("tab", name="Формула").click()
    await roller.get_by_label("Что бросаем").select_option("roll")
    await roller.get_by_label("Кубики и комментарий").fill("d8+1 тайный манёвр")
    await roller.get_by_role("switch", name="Скрытый бросок").check(force=True)
    await press_main_button(roller, "Сделать бросок")

    await gm.locator("li.roll", has_text="тайный манёвр").wait_for(timeout=3000)
    sealed = other.locator("li.roll-sealed")
    await sealed.wait_for(timeout=3000)
    assert "Скрытый бросок" in await sealed.inner_text()
    assert "тайный" not in await other.content()
    assert other.frames_received and not any("тайный" in str(f) for f in other.frames_received)
    assert await gm.get_by_role("button", name="Раскрыть").is_visible()
    assert await other.get_by_role("button", name="Раскрыть").count() == 0

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    await other.screenshot(path=str(ARTIFACTS / "hidden-sealed-dark.png"), full_page=True)
    await gm.screenshot(path=str(ARTIFACTS / "hidden-gm-light.png"), full_page=True)
    await gm.get_by_role("button", name="Раскрыть").click()
    await other.locator("li.roll", has_text="тайный манёвр").wait_for(timeout=3000)
    for page in (gm, other, roller):
        assert page.problems == []


async def test_long_unbroken_names_never_widen_the_page(browser, server, db):  # type: ignore[no-untyped-def]
    """A name or comment without spaces wraps inside the 390 px screen (it once made the
    page 2,490 px wide)."""
    long = "Оченьдлинноеимябезединогопробела" * 4
    await touch_user(GM_ID, "Мастер")
    await touch_user(PLAYER_ID, long)
    game = await create_game(
        chat_id=-100777, topic_id=None, system="storyteller", name=long,
        creator_id=GM_ID, chat_title=long,
    )  # fmt: skip
    await join_game(game.id, PLAYER_ID)
    await log_roll(
        user_id=PLAYER_ID, chat_id=-100777, topic_id=None, game_id=game.id,
        command="r", args="2d6 " + long, result=roll("2d6 " + long, random.Random(1)).to_dict(),
    )  # fmt: skip
    page = await open_app(browser, server, PLAYER_ID, startapp_token(game.id, bot_token=TOKEN))
    await page.locator("li.roll").first.wait_for(timeout=3000)
    width = await page.evaluate("document.documentElement.scrollWidth")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(ARTIFACTS / "long-names-light.png"), full_page=True)
    assert width <= 390, f"the page is {width} px wide"
    dark = await open_app(
        browser, server, PLAYER_ID, startapp_token(game.id, bot_token=TOKEN), dark=True
    )
    await dark.locator("li.roll").first.wait_for(timeout=3000)
    # Telegram's BackButton is the only back control: to the list of games
    assert await dark.get_by_role("button", name="← Мои игры").count() == 0
    await dark.wait_for_function("() => window.Telegram?.WebApp?.BackButton?.isVisible")
    await dark.evaluate("() => window.Telegram.WebView.receiveEvent('back_button_pressed')")
    await dark.get_by_text(long[:20]).first.wait_for(timeout=3000)
    await dark.screenshot(path=str(ARTIFACTS / "long-names-list-dark.png"), full_page=True)
    assert await dark.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.problems == [] and dark.problems == []
