"""The GM who plays a fighter is a player too, and one press seals once, through the Mini
App API (issue 26 item 2): Аня's Бьорн against Такеда, whom the GM saved (the GM plays him).
Before the GM seals Такеда's turn the GM's GET and WebSocket carry nothing of Аня's sealed
turn — no directions, no AP, no dice, no «Комментарий мастеру»; the GM cannot seal Аня's
fighter; a second POST of the same form seals nothing."""

from __future__ import annotations

import json

import pytest

from engine.dice.rng import ScriptedRng
from engine.duel import Attack, Block, Dodge, format_sheet
from engine.services import duel as duels
from engine.services.notify import using
from tests.engine.duel.six_turns import BJORN, TAKEDA
from tests.webapp.conftest import GM_ID, PLAYER_ID, TOKEN, auth, make_game
from tests.webapp.systems.duel.table import TOPIC, actions_json
from webapp.keys import NOTIFIER, RNG
from webapp.links import startapp_token

COMMENT = "Бьорн ревёт и рубит слева, щит держит справа"


@pytest.fixture
async def client(db, aiohttp_client, make_app):  # type: ignore[no-untyped-def]
    app = make_app()
    app[RNG] = ScriptedRng([7, 3, 4, 6])  # Аня's attack, its damage, her block; Такеда's dodge
    with using(app[NOTIFIER]):
        yield await aiohttp_client(app)


async def test_the_gm_playing_a_fighter_sees_nothing_before_sealing(client, db) -> None:
    game = await make_game("duel")
    await duels.save_fighter(game.id, format_sheet(BJORN), actor_id=PLAYER_ID)
    await duels.save_fighter(game.id, format_sheet(TAKEDA), actor_id=GM_ID)  # no owner
    await duels.start_duel(
        game.id, thread=TOPIC, a="Бьорн", b="Такеда", actor_id=GM_ID, rng=ScriptedRng([])
    )
    token = startapp_token(game.id, bot_token=TOKEN)
    url = f"/api/games/{token}/duel"
    ws = await client.ws_connect(f"/api/games/{token}/ws", headers=auth(GM_ID))
    assert (await ws.receive_json(timeout=5))["type"] == "snapshot"
    actions = actions_json([Attack("left", ap=2), Block("right")])
    body = {"command": "submit", "thread": TOPIC, "fighter": "a", "turn": 1, "seals": 0,
            "actions": actions, "comment": COMMENT}  # fmt: skip
    sent = await client.post(url, json=body, headers=auth(PLAYER_ID))
    assert sent.status == 200, await sent.text()
    again = await client.post(url, json=body, headers=auth(PLAYER_ID))  # the double tap
    assert again.status == 409 and (await again.json())["error"]["code"] == "already_sent"
    pushed = await ws.receive_json(timeout=2)
    got = await client.get(url, headers=auth(GM_ID))
    (gm,) = (await got.json())["duel"]["duels"]
    for seen in (gm, pushed["duel"]["duels"][0]):
        raw = json.dumps(seen, ensure_ascii=False)
        assert seen["submissions"] == {} and "proposal" not in seen and seen["review"] == []
        assert COMMENT not in raw and '"rolls"' not in raw and '"direction"' not in raw
        assert seen["fighters"][0]["submitted"] and seen["fighters"][0]["seals"] == 1
    # the GM cannot seal Аня's fighter for her
    theirs = {**body, "actions": actions_json([Dodge("left")]), "seals": 1, "comment": ""}
    refused = await client.post(url, json=theirs, headers=auth(GM_ID))
    assert refused.status == 403
    # the GM seals Такеда's turn: now the review, with Аня's comment
    mine = {**theirs, "fighter": "b", "seals": 0}
    assert (await client.post(url, json=mine, headers=auth(GM_ID))).status == 200
    (gm,) = (await (await client.get(url, headers=auth(GM_ID))).json())["duel"]["duels"]
    assert gm["submissions"]["a"]["comment"] == COMMENT and gm["proposal"]
    await ws.close()
