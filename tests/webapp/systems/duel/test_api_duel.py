"""The six-turn duel through the Mini App API: submissions by each fighter, the GM's review,
an adjustment and one publication per turn; per-viewer projections — a fighter never
receives the opponent's unpublished submission, in JSON or over the WebSocket — and every
receipt checks out after publication."""

from __future__ import annotations

import json
import random
import time

import pytest

from engine.dice.rng import ScriptedRng
from engine.duel import FullDefense
from engine.receipt import verify
from engine.services import duel as duels
from engine.services.notify import using
from engine.services.types import GameInfo
from tests.engine.duel.six_turns import TURNS
from tests.webapp.conftest import GM_ID, OTHER_ID, PLAYER_ID, STRANGER_ID, TOKEN, auth
from tests.webapp.systems.duel.table import TOPIC, actions_json, make_duel
from webapp.keys import NOTIFIER, RNG
from webapp.links import startapp_token


class Dice:
    """The app's rng, scripted per request (`faces`)."""

    def __init__(self) -> None:
        self.rng = ScriptedRng([])

    def faces(self, faces: list[int]) -> None:
        self.rng = ScriptedRng(faces)

    def randint(self, a: int, b: int) -> int:
        return self.rng.randint(a, b)


DICE = Dice()


@pytest.fixture
async def client(db, aiohttp_client, make_app):  # type: ignore[no-untyped-def]
    app = make_app()
    app[RNG] = DICE
    with using(app[NOTIFIER]):
        yield await aiohttp_client(app)


@pytest.fixture
async def duel_game(db) -> GameInfo:  # type: ignore[no-untyped-def]
    return await make_duel()


@pytest.fixture
def dtoken(duel_game: GameInfo) -> str:
    return startapp_token(duel_game.id, bot_token=TOKEN)


async def get(client, dtoken, user_id):  # type: ignore[no-untyped-def]
    response = await client.get(f"/api/games/{dtoken}/duel", headers=auth(user_id))
    assert response.status == 200, await response.text()
    (found,) = (await response.json())["duel"]["duels"]
    return found


async def post(client, dtoken, user_id, status=200, **body):  # type: ignore[no-untyped-def]
    response = await client.post(f"/api/games/{dtoken}/duel", json=body, headers=auth(user_id))
    data = await response.json()
    assert response.status == status, data
    return data


def submit(turn, fighter, actions):  # type: ignore[no-untyped-def]
    return {"command": "submit", "thread": TOPIC, "fighter": fighter, "turn": turn,
            "actions": actions_json(actions)}  # fmt: skip


async def test_the_six_turns_through_the_api(client, dtoken) -> None:
    receipts = []
    for n, (a, fa, b, fb) in enumerate(TURNS, start=1):
        DICE.faces(fa)
        await post(client, dtoken, PLAYER_ID, **submit(n, "a", a))
        anya, boris, guest = [
            await get(client, dtoken, u) for u in (PLAYER_ID, OTHER_ID, STRANGER_ID)
        ]
        # her own submission to her; Борис and a spectator see who and the receipt only
        assert list(anya["submissions"]) == ["a"]
        assert boris["submissions"] == {} and guest["submissions"] == {}
        assert boris["fighters"][0]["submitted"] and boris["fighters"][0]["receipt"]
        assert "proposal" not in boris and "review" not in boris
        DICE.faces(fb)
        await post(client, dtoken, OTHER_ID, **submit(n, "b", b))
        assert DICE.rng.remaining == 0
        gm = await get(client, dtoken, GM_ID)
        assert set(gm["submissions"]) == {"a", "b"} and gm["proposal"] and gm["review"]
        receipts += [f["receipt"] for f in gm["fighters"]]
        if n == 3:  # the GM sets Такеда's d10 of the attack to 6, with a reason
            await post(client, dtoken, PLAYER_ID, 403, command="adjust", thread=TOPIC, turn=n,
                       fighter="b", field="roll", value=6, reason="x")  # fmt: skip
            await post(client, dtoken, GM_ID, command="adjust", thread=TOPIC, turn=n,
                       fighter="b", field="roll", value=5, reason="упал со стола")  # fmt: skip
            gm = await get(client, dtoken, GM_ID)
            assert [a["code"] for a in gm["proposal"]["adjustments"]] == ["adjusted_roll"]
        await post(client, dtoken, PLAYER_ID, 403, command="publish", thread=TOPIC, turn=n)
        await post(client, dtoken, GM_ID, command="publish", thread=TOPIC, turn=n)
        again = await post(client, dtoken, GM_ID, 409, command="publish", thread=TOPIC, turn=n)
        assert again["error"]["code"] == "wrong_turn"
    board = await get(client, dtoken, STRANGER_ID)
    assert board["over"] and len(board["history"]) == len(board["posts"]) == 6
    assert any(d["code"] == "duel.adjusted_roll" for d in board["posts"][2])
    revealed = [r["receipt"] for h in board["history"] for r in h["reveals"]]
    assert revealed == receipts
    for h in board["history"]:
        for sub, r in zip(h["submissions"], h["reveals"], strict=True):
            assert verify(r["receipt"], sub, r["salt"])


async def test_refusals_and_bad_bodies(client, dtoken) -> None:
    bad = await post(client, dtoken, PLAYER_ID, 400, command="submit", thread=TOPIC,
                     fighter="a", turn=1, actions=[{"kind": "kick"}])  # fmt: skip
    assert bad["error"]["code"] == "bad_request"
    other = await post(client, dtoken, PLAYER_ID, 403, **submit(1, "b", TURNS[0][2]))
    assert other["error"]["code"] == "not_your_fighter"
    none = await post(client, dtoken, GM_ID, 409, command="publish", thread=TOPIC + 1, turn=1)
    assert none["error"]["code"] == "no_duel"
    spectator = await post(client, dtoken, STRANGER_ID, 403, **submit(1, "a", TURNS[0][0]))
    assert spectator["ok"] is False


async def test_the_websocket_never_carries_the_opponents_submission(client, duel_game) -> None:
    token = startapp_token(duel_game.id, bot_token=TOKEN)
    sockets = {}
    for user in (PLAYER_ID, OTHER_ID, STRANGER_ID, GM_ID):
        ws = await client.ws_connect(f"/api/games/{token}/ws", headers=auth(user))
        snapshot = await ws.receive_json(timeout=5)
        assert snapshot["type"] == "snapshot" and snapshot["duel"]["duels"]
        sockets[user] = ws
    a, fa, _, _ = TURNS[0]
    DICE.faces(fa)
    await post(client, token, PLAYER_ID, **submit(1, "a", a))
    frames = {u: await ws.receive_json(timeout=2) for u, ws in sockets.items()}
    sealed = frames[GM_ID]["duel"]["duels"][0]["submissions"]["a"]
    secret = json.dumps(sealed["rolls"], ensure_ascii=False)
    # the player herself gets her choices, not her dice, before the reveal (one roll per turn)
    own = frames[PLAYER_ID]["duel"]["duels"][0]["submissions"]["a"]
    assert own == {k: v for k, v in sealed.items() if k != "rolls"}
    for user in (OTHER_ID, STRANGER_ID, PLAYER_ID):
        raw = json.dumps(frames[user], ensure_ascii=False)
        assert frames[user]["type"] == "duel" and '"rolls"' not in raw and secret not in raw
        assert frames[user]["duel"]["duels"][0]["fighters"][0]["submitted"]
    for ws in sockets.values():
        await ws.close()


async def test_the_gm_sets_a_deadline_and_seals_a_default_defense(client, dtoken, duel_game):
    body = {"command": "deadline", "thread": TOPIC, "hours": 24, "policy": "ask"}
    await post(client, dtoken, PLAYER_ID, 403, **body)
    bad = await post(client, dtoken, GM_ID, 400, **{**body, "hours": 0})
    assert bad["error"]["code"] == "bad_request"
    before = time.time()
    await post(client, dtoken, GM_ID, **body)
    board = await get(client, dtoken, STRANGER_ID)
    assert board["deadline"] == {"hours": 24, "policy": "ask"} and not board["overdue"]
    assert before + 24 * 3600 <= board["due"] <= time.time() + 24 * 3600
    a, fa, _, _ = TURNS[0]
    DICE.faces(fa)
    await post(client, dtoken, PLAYER_ID, **submit(1, "a", a))
    assert (await get(client, dtoken, GM_ID))["missing"] == ["b"]
    default = {"command": "default", "thread": TOPIC, "turn": 1, "fighter": "b"}
    early = await post(client, dtoken, GM_ID, 409, **default)
    assert early["error"]["code"] == "deadline_not_passed"
    # the bot's loop passes it (here with the clock a day and a minute on)
    passed = await duels.pass_deadline(
        duel_game.id, TOPIC, turn=1, now=board["due"] + 60, rng=random.Random(1)
    )
    assert passed is not None
    gm = await get(client, dtoken, GM_ID)
    assert gm["overdue"] and gm["missing"] == ["b"]
    await post(client, dtoken, OTHER_ID, 403, **default)
    DICE.faces([2, 8, 3])  # the side (right), then the stance's two d10
    await post(client, dtoken, GM_ID, **default)
    gm = await get(client, dtoken, GM_ID)
    assert gm["submissions"]["b"]["actions"][0]["kind"] == "full_defense"
    assert gm["proposal"] and gm["missing"] == []
    # the GM's review says which turn is the default defense
    assert {"code": "duel.action_default", "params": {"fighter": "b"}} in gm["review"]
    await post(client, dtoken, GM_ID, command="publish", thread=TOPIC, turn=1)
    board = await get(client, dtoken, STRANGER_ID)
    assert board["turn"] == 2 and board["due"] > gm["due"] and not board["overdue"]
    # the published post marks Такеда's default defense (and only it)
    marks = [d for d in board["posts"][0] if d["code"] == "duel.action_default"]
    assert marks == [{"code": "duel.action_default", "params": {"fighter": "b"}}]
    assert [r["default"] for r in board["history"][0]["reveals"]] == [False, True]
    off = await post(client, dtoken, GM_ID, command="deadline", thread=TOPIC, hours=None)
    assert off["ok"]
    assert (await get(client, dtoken, STRANGER_ID))["deadline"] is None


async def test_the_gm_changes_the_second_d10_of_a_full_defense(client, dtoken) -> None:
    # Бьорн stands in full defense on the right (d10 3 and 2: the higher, 3, counts);
    # Такеда attacks on the right (d10 7) and dodges
    DICE.faces([3, 2])
    await post(client, dtoken, PLAYER_ID, **submit(1, "a", [FullDefense("right")]))
    _, _, b, fb = TURNS[0]
    DICE.faces(fb)
    await post(client, dtoken, OTHER_ID, **submit(1, "b", b))
    gm = await get(client, dtoken, GM_ID)
    [first, second] = gm["submissions"]["a"]["rolls"][0]["checks"]
    assert (first["die"]["value"], second["die"]["value"]) == (3, 2)
    # the right side on a failed roll (3 + 1 against 8) turns the blow
    assert [(s["code"], s["rule"]) for s in gm["proposal"]["steps"] if s["fighter"] == "b"] == [
        ("sp_spent", "sp_spent"), ("turned", "block_turned"),
    ]  # fmt: skip
    change = {"command": "adjust", "thread": TOPIC, "turn": 1, "fighter": "a", "field": "roll",
              "action": 0, "check": 1, "value": 10, "reason": "ошибка в броске"}  # fmt: skip
    await post(client, dtoken, OTHER_ID, 403, **change)
    # Такеда's attack has one d10: there is no second one to change
    bad = await post(client, dtoken, GM_ID, 400, **{**change, "fighter": "b"})
    assert bad["error"]["code"] == "bad_dice"
    await post(client, dtoken, GM_ID, **change)
    gm = await get(client, dtoken, GM_ID)
    [note] = gm["proposal"]["adjustments"]
    assert note["code"] == "adjusted_roll"
    assert note["params"] == {"action": 1, "check": 1, "face": 10, "was": 2,
                              "reason": "ошибка в броске"}  # fmt: skip
    # the second d10 is now the higher, a natural 10 on the attack's side: a critical block
    # parries it («Удачный бросок защиты в сочетании с верным направлением защиты позволяет
    # парировать атаку»)
    assert [(s["code"], s["rule"]) for s in gm["proposal"]["steps"] if s["fighter"] == "b"] == [
        ("sp_spent", "sp_spent"), ("parried", "block_critical_parry"),
        ("loses_action", "parry_effect"),
    ]  # fmt: skip
    # the sealed submission is as it was sent (its receipt must check out)
    assert gm["submissions"]["a"]["rolls"][0]["checks"][1]["die"]["value"] == 2
    await post(client, dtoken, GM_ID, command="publish", thread=TOPIC, turn=1)
    board = await get(client, dtoken, STRANGER_ID)
    [published] = board["history"]
    for sub, r in zip(published["submissions"], published["reveals"], strict=True):
        assert verify(r["receipt"], sub, r["salt"])
    [line] = [d for d in board["posts"][0] if d["code"].startswith("duel.adjusted_roll")]
    assert line["code"] == "duel.adjusted_roll_second" and line["params"]["face"] == 10


async def test_the_gm_stops_the_duel_from_the_app(client, dtoken) -> None:
    """The Mini App's stop (issue 26 item 5) is `/duel стоп`'s service: the GM's alone, behind
    initData; the duel is over where it stands and the turn being sealed is not revealed."""
    a, fa, _, _ = TURNS[0]
    DICE.faces(fa)
    await post(client, dtoken, PLAYER_ID, **submit(1, "a", a))
    stop = {"command": "stop", "thread": TOPIC}
    unsigned = await client.post(f"/api/games/{dtoken}/duel", json=stop)
    assert unsigned.status == 401
    refused = await post(client, dtoken, PLAYER_ID, 403, **stop)
    assert refused["error"]["code"] == "forbidden"
    await post(client, dtoken, GM_ID, **stop)
    board = await get(client, dtoken, STRANGER_ID)
    assert board["over"] and board["history"] == [] and board["fighters"][0]["hp"] == 24
    again = await post(client, dtoken, GM_ID, 409, **stop)
    assert again["ok"] is False


async def test_the_gm_starts_and_undoes_from_the_app_by_topic(client, dtoken) -> None:
    """The shared scene start and undo, scoped by the body's topic: a second duel in the
    running topic is `duel_active`; the undo takes back the topic's last step once — the
    page sends that duel's seq and stream, and a second tap on the same board is refused
    (`conflict`) — a player is refused, and a topic without a duel is `no_duel`."""
    start = {"command": "start", "thread": TOPIC, "a": "Бьорн", "b": "Такеда"}
    busy = await post(client, dtoken, GM_ID, 409, **start)
    assert busy["error"]["code"] == "duel_active"
    a, fa, _, _ = TURNS[0]
    DICE.faces(fa)
    await post(client, dtoken, PLAYER_ID, **submit(1, "a", a))
    seen = await get(client, dtoken, GM_ID)
    assert seen["missing"] == ["b"]
    undo = {"command": "undo", "thread": TOPIC, "seq": seen["seq"], "stream": seen["stream"]}
    refused = await post(client, dtoken, PLAYER_ID, 403, **undo)
    assert refused["error"]["code"] == "forbidden"
    none = await post(client, dtoken, GM_ID, 409, **{**undo, "thread": TOPIC + 1})
    assert none["error"]["code"] == "no_duel"
    await post(client, dtoken, GM_ID, **undo)
    again = await post(client, dtoken, GM_ID, 409, **undo)
    assert again["error"]["code"] == "conflict"
    gm = await get(client, dtoken, GM_ID)
    assert gm["submissions"] == {} and gm["missing"] == ["a", "b"] and gm["turn"] == 1
