"""What each viewer sees of the fight: NPCs' health and pools are the GM's."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from engine.describe import Description
from engine.observe import GM, PLAYER, PUBLIC, SPECTATOR
from engine.storyteller import events as ev
from engine.storyteller.commands import StartTurn
from engine.storyteller.describe import describe_event
from engine.storyteller.observe import audience, observe, observe_attack, observe_description

from .test_fight import Game, new_game, play


@dataclass(frozen=True)
class Viewer:
    user_id: int
    role: str


MASTER, VERA_PLAYER, WATCHER = Viewer(9, GM), Viewer(1, PLAYER), Viewer(5, SPECTATOR)


def _played() -> Game:
    g = new_game()
    play(g)
    return g


def test_the_gm_sees_npcs_a_player_does_not() -> None:
    g = _played()
    gm = {f["id"]: f for f in observe(g.state, MASTER)["fighters"]}
    player = {f["id"]: f for f in observe(g.state, VERA_PLAYER)["fighters"]}
    assert gm["boss"]["health"] == ["lethal"] * 4 and "sheet" in gm["boss"]
    assert "health" not in player["boss"] and "willpower" not in player["boss"]
    assert "sheet" not in player["boss"] and "sheet" not in player["max"]
    # the player characters' tracks are public; the own sheet is the owner's
    assert player["max"]["health"] == gm["max"]["health"] and "sheet" in player["vera"]
    assert player["thug2"]["out"] and player["thug2"]["mark"] == "waiting"


def test_a_hidden_roll_never_reveals_its_pool() -> None:
    g = _played()
    shot = next(e for e in g.log if isinstance(e, ev.AttackResolved) and e.attacker == "boss")
    seen = observe_attack(g.state, shot, VERA_PLAYER)
    assert seen["attack"] == {"hidden": True, "net": 3, "outcome": "success"}
    assert seen["damage"]["roll"] == {"hidden": True, "net": 4, "outcome": "success"}
    assert seen["damage"]["soak"]["dice_count"] == 3  # Vera's own soak is public
    gm = observe_attack(g.state, shot, MASTER)
    assert gm["attack"]["dice_count"] == 4 and len(gm["attack"]["dice"]) == 4
    # a game that shows its NPCs
    shown = dataclasses.replace(
        g.state, options=dataclasses.replace(g.state.options, hide_npcs=False)
    )
    assert observe_attack(shown, shot, VERA_PLAYER)["attack"]["dice_count"] == 4


def test_ties_and_marks_on_the_board() -> None:
    g = new_game()
    g.do(StartTurn(), [3, 6, 3, 5, 5, 2])
    board = observe(g.state, WATCHER)
    assert board["groups"][0] == ["vera", "max"] and board["up"] == ["vera", "max"]
    assert audience(g.state, WATCHER) == PUBLIC
    assert audience(g.state, VERA_PLAYER) == ("owner", 1)
    assert audience(g.state, MASTER) == (GM, 9)


def test_an_npcs_soak_is_the_gms() -> None:
    # issue 25: «after each hit the group reads … the NPC's health track» — the soak's
    # successes with the damage rolled would tell the levels an NPC took
    g = _played()
    hit = next(
        e
        for e in g.log
        if isinstance(e, ev.AttackResolved)
        and e.damage is not None
        and e.damage.victim == "thug3"
        and e.damage.soak is not None
    )
    assert observe_attack(g.state, hit, VERA_PLAYER)["damage"]["soak"] is None
    assert observe_attack(g.state, hit, MASTER)["damage"]["soak"]["dice_count"] > 0
    said = describe_event(hit)
    soak = [d for d in said if d.code.endswith(".soak")]
    assert soak  # the GM reads it
    assert observe_description(g.state, hit, soak[0], MASTER) == soak[0]
    assert observe_description(g.state, hit, soak[0], VERA_PLAYER) is None
    # a player's own soak stays told
    vera = next(
        e
        for e in g.log
        if isinstance(e, ev.AttackResolved) and e.damage is not None and e.damage.victim == "vera"
    )
    mine = [d for d in describe_event(vera) if d.code.endswith(".soak")]
    assert all(
        isinstance(observe_description(g.state, vera, d, VERA_PLAYER), Description) for d in mine
    )
    assert mine
