"""The Storyteller fight through the Mini App API: the engine's scripted fight
(tests/engine/storyteller/test_fight.py, each step citing its seed sentence) sent as board
commands by the GM and the players, every attack a proposal the GM sees with its dice and
publishes — one of them adjusted first; each viewer's board (NPC pools hidden from
players, the proposal the GM's)."""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import AsyncIterator
from typing import Any

import pytest
from pydantic import SecretStr

from bot.settings import Settings
from engine.services import storyteller as st
from engine.services.notify import using
from engine.storyteller import commands as cmd
from engine.storyteller import events as ev
from engine.storyteller.sheet import format_sheet
from tests.engine.storyteller import test_fight as scripted
from tests.webapp.conftest import GM_ID, OTHER_ID, PLAYER_ID, STRANGER_ID, TOKEN, auth, make_game
from webapp.app import create_app
from webapp.config import WebAppConfig
from webapp.keys import NOTIFIER
from webapp.links import startapp_token

CAST = (
    ("vera", scripted.VERA, PLAYER_ID),
    ("max", scripted.MAX, OTHER_ID),
    ("boss", scripted.BOSS, None),
    ("thug1", scripted.THUG1, None),
    ("thug2", scripted.THUG2, None),
    ("thug3", scripted.THUG3, None),
)
OWNER = {fid: user for fid, _, user in CAST}


class Faces:
    """The app's dice: the faces a test loads, in order."""

    def __init__(self) -> None:
        self.faces: deque[int] = deque()

    def load(self, faces: list[int]) -> None:
        assert not self.faces, f"{len(self.faces)} faces left unused"
        self.faces.extend(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.popleft()


@pytest.fixture
def faces() -> Faces:
    return Faces()


@pytest.fixture
async def api(db, aiohttp_client, faces) -> AsyncIterator[Any]:  # type: ignore[no-untyped-def]
    settings = Settings(bot_token=SecretStr(TOKEN))
    app = create_app(settings, webapp_config=WebAppConfig(), rng=faces)
    with using(app[NOTIFIER]):
        yield await aiohttp_client(app)


class Recorder(scripted.Game):
    def __init__(self) -> None:
        super().__init__()
        self.played: list[tuple[cmd.Command, list[int]]] = []

    def do(self, command: cmd.Command, *rolled: list[int]) -> tuple[ev.Event, ...]:
        self.played.append((command, list(itertools.chain.from_iterable(rolled))))
        return super().do(command, *rolled)


def body(command: cmd.Command, ids: dict[str, str]) -> tuple[int, dict[str, Any]]:
    """Who sends the command from the board, and its JSON."""
    if isinstance(command, cmd.Ambush):
        return GM_ID, {"command": "ambush", "actor": ids[command.attacker],
                       "target": ids[command.victim]}  # fmt: skip
    if isinstance(command, cmd.StartTurn):
        return GM_ID, {"command": "initiative"}
    simple = {cmd.Delay: "delay", cmd.Yield: "yield", cmd.EndAction: "done"}
    simple |= {cmd.FullDefense: "full_defense"}
    for cls, name in simple.items():
        if isinstance(command, cls):
            fid = command.fighter  # type: ignore[attr-defined]
            return OWNER[fid] or GM_ID, {"command": name, "actor": ids[fid]}
    if isinstance(command, cmd.DeclareActions):
        fid = command.fighter
        return OWNER[fid] or GM_ID, {"command": "declare", "actor": ids[fid],
                                     "count": command.count}  # fmt: skip
    assert isinstance(command, cmd.Attack)
    out: dict[str, Any] = {
        "command": "attack",
        "actor": ids[command.attacker],
        "target": ids[command.target],
        "weapon": command.weapon or "",
        "defense": command.defense or "",
        "interrupt": command.interrupt or "",
        "aim": command.situation.aim or "",
    }
    return OWNER[command.attacker] or GM_ID, out


async def send(api, token, user_id, status=200, **data):  # type: ignore[no-untyped-def]
    response = await api.post(f"/api/games/{token}/st_fight", json=data, headers=auth(user_id))
    answer = await response.json()
    assert response.status == status, answer
    return answer["st_fight"] if status == 200 else answer["error"]


async def board(api, token, user_id):  # type: ignore[no-untyped-def]
    response = await api.get(f"/api/games/{token}/st_fight", headers=auth(user_id))
    assert response.status == 200, await response.text()
    return (await response.json())["st_fight"]


async def set_up(api: Any) -> tuple[str, dict[str, str], int]:
    game = await make_game("storyteller")
    token = startapp_token(game.id, bot_token=TOKEN)
    for _fid, character, owner in CAST:
        await st.save_character(
            game.id, format_sheet(character), actor_id=owner or GM_ID, template=owner is None
        )
    # the story rolls initiative every turn and names every defense (the game's options:
    # no player is asked for one)
    await send(api, token, GM_ID, command="options", initiative_once=False, defense_seconds=0)
    await send(api, token, GM_ID, command="start")
    for _fid, character, _owner in CAST:
        await send(api, token, GM_ID, command="add", name=character.name)
    view = await st.current_fight(game.id)
    assert view is not None
    names = {f.character.name: f.id for f in view.state.fighters}
    return token, {fid: names[c.name] for fid, c, _ in CAST}, game.id


async def test_the_scripted_fight_through_the_api(api, faces) -> None:  # type: ignore[no-untyped-def]
    engine = Recorder()
    for fid, c, owner in CAST:
        engine.do(cmd.AddFighter(fid, c, owner))
    scripted.play(engine)
    token, ids, game_id = await set_up(api)
    adjusted = False
    for command, rolled in engine.played[len(CAST) :]:
        user, data = body(command, ids)
        faces.load(rolled)
        seen = await board(api, token, user)
        await send(api, token, user, seq=seen["seq"], stream=seen["stream"], **data)
        assert not faces.faces, data
        if not isinstance(command, cmd.Attack):
            continue
        # the table sees that the GM decides, nothing of the dice; the GM sees the steps
        player = await board(api, token, PLAYER_ID)
        assert player["proposal"] == {"attacker": ids[command.attacker],
                                      "target": ids[command.target]}  # fmt: skip
        gm = await board(api, token, GM_ID)
        steps = gm["proposal"]["steps"]
        assert steps["attacker"] == ids[command.attacker] and not steps["attack"].get("hidden")
        if not adjusted and command.attacker == "max":
            # the GM raises the difficulty and puts it back: the same dice, the same roll
            up = gm["proposal"]["difficulty"] + 1
            changed = await send(api, token, GM_ID, command="adjust", difficulty=up)
            assert changed["seq"] > gm["seq"]
            gm = await board(api, token, GM_ID)
            assert gm["proposal"]["changes"]["difficulty"] == up
            assert gm["proposal"]["steps"]["attack"]["difficulty"] == up
            await send(api, token, GM_ID, command="adjust", difficulty=up - 1)
            adjusted = True
        after = await send(api, token, GM_ID, command="publish")
        assert after["proposal"] is None
        # the board's current attack is the published one, an NPC's roll hidden from players
        public = await board(api, token, PLAYER_ID)
        attack = public["attack"]
        pair = (ids[command.attacker], ids[command.target])
        assert (attack["attacker"], attack["target"]) == pair
        npc = OWNER[command.attacker] is None
        assert bool(attack["attack"].get("hidden")) == npc
        if npc:  # a hidden roll never reveals its pool size
            assert set(attack["attack"]) == {"hidden", "net", "outcome"}
    assert adjusted
    view = await st.current_fight(game_id)
    assert view is not None
    for fid, _c, _o in CAST:
        assert view.state.fighter(ids[fid]).character == engine.state.fighter(fid).character
    # what each viewer sees of the fallen
    gm = await board(api, token, GM_ID)
    spectator = await board(api, token, STRANGER_ID)
    thug2 = next(f for f in spectator["fighters"] if f["id"] == ids["thug2"])
    assert thug2["out"] and "health" not in thug2  # an NPC's track is the GM's
    assert next(f for f in gm["fighters"] if f["id"] == ids["thug2"])["health"]
    vera = next(f for f in spectator["fighters"] if f["id"] == ids["vera"])
    assert vera["health"] == ["lethal"] * 3 and "sheet" not in vera


async def test_refusals_and_undo(api, faces) -> None:  # type: ignore[no-untyped-def]
    token, ids, _ = await set_up(api)
    error = await send(api, token, PLAYER_ID, 403, command="initiative")
    assert error["code"] == "forbidden"
    faces.load([3, 6, 3, 5, 5, 2])
    await send(api, token, GM_ID, command="initiative")
    error = await send(api, token, PLAYER_ID, 403, command="attack", actor=ids["max"],
                       target=ids["thug2"])  # fmt: skip
    assert error["code"] == "not_your_character" and error["message"]
    faces.load([2, 2, 2, 2, 2])
    await send(api, token, OTHER_ID, command="attack", actor=ids["max"], target=ids["thug2"],
               weapon="Кулак")  # fmt: skip
    error = await send(api, token, PLAYER_ID, 409, command="delay", actor=ids["vera"])
    assert error["code"] == "proposal_pending"
    error = await send(api, token, OTHER_ID, 403, command="publish")
    assert error["code"] == "forbidden"
    published = await send(api, token, GM_ID, command="publish")
    assert published["attack"]["hit"] is False
    undone = await send(api, token, GM_ID, command="undo", seq=published["seq"])
    assert undone["proposal"] is not None and undone["attack"] is None
    dropped = await send(api, token, GM_ID, command="drop")
    assert dropped["proposal"] is None
    bad = await send(api, token, GM_ID, 400, command="adjust", difficulty=11)
    assert bad["code"] == "bad_request"
