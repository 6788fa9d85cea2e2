"""The boards in real Chromium: the GM deals a round and a player's page shows the new order
without a reload; a chase token moved by the GM moves on the player's board. Screenshots of
the initiative and chase screens (GM and player, light and dark) go to test-artifacts/webapp/."""

from __future__ import annotations

import pytest

from engine.services.types import GameInfo
from tests.webapp.browser import ARROW_AND_PADDING, ARTIFACTS, OPTION_WIDTHS
from tests.webapp.conftest import GM_ID, PLAYER_ID, TOKEN
from tests.webapp.systems.savage.fight import make_fight
from tests.webapp.test_browser import (  # noqa: F401 (fixtures)
    browser,
    open_app,
    press_main_button,
    server,
)
from webapp.links import startapp_token


@pytest.fixture
async def fight(db) -> GameInfo:  # type: ignore[no-untyped-def]
    return await make_fight(chase_too=True)


async def order(page) -> list[str]:  # type: ignore[no-untyped-def]
    return await page.locator("li.fighter").evaluate_all(
        "items => items.map(li => li.dataset.combatant)"
    )


async def shoot(page, name: str) -> None:  # type: ignore[no-untyped-def]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


async def test_the_gm_deals_and_the_players_board_follows(browser, server, fight):  # noqa: F811
    start = startapp_token(fight.id, "initiative", bot_token=TOKEN)
    gm = await open_app(browser, server, GM_ID, start)
    player = await open_app(browser, server, PLAYER_ID, start, dark=True)
    await player.locator("li.fighter").first.wait_for(timeout=5000)
    await gm.get_by_test_id("gm-controls").wait_for(timeout=5000)
    assert await player.get_by_test_id("gm-controls").count() == 0
    assert await player.locator(".pc-none").count() == 4  # no cards yet

    await press_main_button(gm, "Раздать")  # Telegram's MainButton carries the deal
    await player.locator("li.fighter.acting").wait_for(timeout=3000)
    await gm.locator("li.fighter.acting").wait_for(timeout=3000)
    assert await order(player) == await order(gm)
    assert await player.locator("li.fighter .pc[data-card]").count() == 4
    assert await player.get_by_role("heading", name="Раунд 1").is_visible()
    await player.get_by_test_id("player-controls").wait_for(timeout=3000)
    await gm.locator("li.fighter", has_text="Гриммджо").locator(".fighter-main").click()
    await shoot(gm, "initiative-gm-light")
    await shoot(player, "initiative-player-dark")
    assert gm.problems == [] and player.problems == []


# A Joker's card as cards.js draws it, with `label` (its word in the page's language), put on
# the board for a moment: its word's box and the card's (the deal is random: a Joker may
# not be dealt at all, so the test draws one).
JOKER_CARD = """(label) => {
  const card = document.createElement("span");
  card.className = "pc pc-joker";
  card.innerHTML = `<b>★</b><i>${label}</i>`;
  document.querySelector("li.fighter").append(card);
  const range = document.createRange();  // the text itself, not its (clamped) element
  range.selectNodeContents(card.querySelector("i"));
  const word = range.getBoundingClientRect();
  const box = card.getBoundingClientRect();
  card.remove();
  return [word.left, word.right, box.left, box.right];
}"""


@pytest.mark.parametrize("dark", [False, True])
async def test_a_jokers_word_fits_on_its_card(browser, server, fight, dark):  # noqa: F811
    page = await open_app(
        browser,
        server,
        PLAYER_ID,
        startapp_token(fight.id, "initiative", bot_token=TOKEN),
        dark=dark,
    )
    await page.locator("li.fighter").first.wait_for(timeout=5000)
    for label in ("Джокер", "Joker"):  # the Russian catalog's word, and the English one
        word_left, word_right, card_left, card_right = await page.evaluate(JOKER_CARD, label)
        assert card_left <= word_left and word_right <= card_right, (label, card_right - card_left)
    row = page.locator("li.fighter").first  # how it looks: the card beside a fighter's row
    card = '<span class="pc pc-joker"><b>★</b><i>Джокер</i></span>'
    await row.evaluate("(li, card) => li.insertAdjacentHTML('beforeend', card)", card)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    await row.screenshot(path=str(ARTIFACTS / f"joker-card-{'dark' if dark else 'light'}.png"))
    assert page.problems == []


async def test_a_token_moved_by_the_gm_moves_on_the_players_board(browser, server, fight):  # noqa: F811
    start = startapp_token(fight.id, "chase", bot_token=TOKEN)
    gm = await open_app(browser, server, GM_ID, start, dark=True)
    player = await open_app(browser, server, PLAYER_ID, start)
    token = player.locator("li.chase-card[data-index='1'] [data-token='grimmdzho']")
    await token.wait_for(timeout=5000)

    await gm.locator("[data-token='grimmdzho']").click()
    await gm.locator("li.chase-card[data-index='6'] .chase-face").click()
    await player.locator("li.chase-card[data-index='6'] [data-token='grimmdzho']").wait_for(
        timeout=3000
    )
    assert await token.count() == 0
    assert (
        "Гриммджо ↔" in await player.locator(".distances").inner_text()
        or "↔ Гриммджо" in await player.locator(".distances").inner_text()
    )
    await player.get_by_test_id("player-chase-controls").wait_for(timeout=3000)
    # whom to bump: every name fits in its select (it used to share a row with both buttons)
    for name, width, inner in await player.evaluate(OPTION_WIDTHS, "select[name='bump-target']"):
        assert width + ARROW_AND_PADDING <= inner, (name, width, inner)
    await gm.locator("[data-token='ichigo']").click()
    await shoot(gm, "chase-gm-dark")
    await shoot(player, "chase-player-light")
    # the tabs: back to the initiative board, then the BackButton's history
    await player.get_by_role("tab", name="Инициатива").click()
    await player.locator("li.fighter").first.wait_for(timeout=3000)
    await shoot(player, "initiative-player-light")
    assert gm.problems == [] and player.problems == []
