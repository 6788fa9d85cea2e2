"""The Mini App at the table (issue 12, item 10), in real Chromium at 390×844: a Shaken
player's screen puts «Снять Шок (бенни)» first, above the fold; the GM's screen folds what is
not needed every turn; the damage field's hint is the engine's default in Russian; chase
tokens keep names whole, sides have a shape, the Complications are one legend. Screenshots
(light and dark): test-artifacts/webapp/table-{player,gm,chase}-{light,dark}.png."""

from __future__ import annotations

import random

import pytest

from engine import savage
from engine.services.savage import current_encounter, encounter_command
from engine.services.types import GameInfo
from tests.webapp.conftest import GM_ID, PLAYER_ID, TOKEN
from tests.webapp.systems.savage.fight import make_fight
from tests.webapp.systems.savage.test_browser_boards import shoot
from tests.webapp.test_browser import browser, open_app, server  # noqa: F401 (fixtures)
from webapp.links import startapp_token

PHONE_HEIGHT = 844


@pytest.fixture
async def fight(db) -> GameInfo:  # type: ignore[no-untyped-def]
    """Ichigo acting, Shaken (the Spirit roll at the start of the turn failed)."""
    game = await make_fight(chase_too=True)
    rng = random.Random(11)
    for _ in range(8):
        await encounter_command(game.id, savage.NextTurn(), actor_id=GM_ID, rng=rng)
        view = await current_encounter(game.id)
        if view is not None and view.state.current == "ichigo":
            shaken = savage.SetStatus("ichigo", (("shaken", 1),))
            await encounter_command(game.id, shaken, actor_id=GM_ID, rng=rng)
            return game
    raise AssertionError("Ichigo never got a turn")


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
async def test_the_players_screen_puts_what_they_can_do_first(browser, server, fight, dark):  # noqa: F811
    scheme = "dark" if dark else "light"
    start = startapp_token(fight.id, "initiative", bot_token=TOKEN)
    player = await open_app(browser, server, PLAYER_ID, start, dark=dark)
    controls = player.get_by_test_id("player-controls")
    await controls.wait_for(timeout=5000)
    first = controls.locator("button").first
    assert (await first.inner_text()).strip() == "Снять Шок (бенни)"
    box = await first.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE_HEIGHT  # above the fold
    attack = player.get_by_test_id("action-panel")
    attack_box = await attack.bounding_box()
    assert attack_box is not None and attack_box["y"] > box["y"]  # the attack form below
    await player.locator("select[name=action]").select_option("attack")
    hint = await player.locator("input[name=damage-dice]").get_attribute("placeholder")
    assert hint == "Сил+d6"  # no «str+d6»
    for button in await player.locator("button.act").all():  # no label spills out
        fits = await button.evaluate("b => b.scrollWidth <= b.clientWidth + 1")
        assert fits, await button.inner_text()
    await shoot(player, f"table-player-{scheme}")

    gm = await open_app(browser, server, GM_ID, start, dark=dark)
    await gm.get_by_test_id("gm-controls").wait_for(timeout=5000)
    height = await gm.evaluate("document.documentElement.scrollHeight")
    assert height <= 2.2 * PHONE_HEIGHT, height  # about two phone screens
    await shoot(gm, f"table-gm-{scheme}")

    chase_start = startapp_token(fight.id, "chase", bot_token=TOKEN)
    row = await open_app(browser, server, GM_ID, chase_start, dark=dark)
    legend = row.get_by_test_id("complication-legend")
    await legend.wait_for(timeout=5000)
    assert await row.locator(".chase-card .compl").count() == 0  # one legend, not per card
    for token in await row.locator(".token").all():
        text = await token.inner_text()
        assert text[0] in "●▲■◆"  # the side's shape
        name = token.locator(".token-name")
        one_line = await name.evaluate("n => getComputedStyle(n).whiteSpace === 'nowrap'")
        assert one_line  # a name never breaks mid-word
        whole = await name.evaluate("n => n.scrollWidth <= n.clientWidth")
        assert whole, text  # nor is it cut: the cards are wide enough
    await shoot(row, f"table-chase-{scheme}")
    assert player.problems == [] and gm.problems == [] and row.problems == []
