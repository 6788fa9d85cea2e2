"""Seals that are one (issue 26 item 2): one press seals once, nothing is re-sealed after
the deadline, a player's fighter is sealed by its player alone, and the GM who plays a
fighter reads nothing of the opponent's sealed turn before sealing their own («Броски делаем
скрытно»; «Два игрока на ветку, ходят в произвольном порядке, затем резолв»)."""

from __future__ import annotations

import json

import pytest

from engine.dice.rng import ScriptedRng
from engine.duel import Deadline, PassDeadline, SetDeadline
from engine.duel.actions import Attack, Block, Dodge
from engine.duel.commands import Submit
from engine.duel.decide import decide, evolve
from engine.duel.errors import DuelError
from engine.duel.observe import observe
from engine.duel.state import DuelState, new_duel
from engine.observe import GM

from .six_turns import BJORN, TAKEDA
from .test_observe import Viewer

ALICE, GM_ID = 101, 1
SALT = "c0" * 16
T0 = 1_800_000_000.0


def _run(state: DuelState, command: object, faces: list[int]) -> DuelState:
    for e in decide(state, command, ScriptedRng(faces)):  # type: ignore[arg-type]
        state = evolve(state, e)
    return state


def _gm_plays_b() -> DuelState:
    """Алиса's Бьорн against Такеда, whom the GM saved (no owner): the GM plays him."""
    return new_duel(BJORN, TAKEDA, owners=(ALICE, None))


def test_a_double_tap_seals_once() -> None:
    state = _gm_plays_b()
    press = Submit("a", (Attack("left"),), SALT, by=ALICE, seals=0)  # the form made at 0
    state = _run(state, press, [5, 3])
    with pytest.raises(DuelError, match="already_sent"):  # the second tap of that form
        decide(state, press, ScriptedRng([9, 9]))
    assert state.seals("a") == 1 and len(state.replaced) == 0
    # the change's form is made at 1: it seals (and keeps the dice)
    state = _run(state, Submit("a", (Attack("top"),), SALT, by=ALICE, seals=1), [])
    assert state.seals("a") == 2


def test_the_gm_does_not_seal_a_players_fighter() -> None:
    state = _run(_gm_plays_b(), Submit("a", (Attack("left"),), SALT, by=ALICE), [5, 3])
    with pytest.raises(DuelError, match="not_your_fighter"):
        decide(state, Submit("a", (Dodge("left"),), SALT), ScriptedRng([4]))  # by the GM
    with pytest.raises(DuelError, match="not_your_fighter"):  # nor a player the GM's fighter
        decide(state, Submit("b", (Dodge("left"),), SALT, by=ALICE), ScriptedRng([4]))


def test_nothing_is_resealed_after_the_deadline() -> None:
    state = new_duel(BJORN, TAKEDA, owners=(ALICE, 202))
    state = _run(state, SetDeadline(Deadline(24, "ask"), now=T0), [])
    state = _run(state, Submit("a", (Block("left"),), SALT, by=ALICE), [5])
    state = _run(state, PassDeadline(1, now=T0 + 25 * 3600, salt=SALT), [])
    with pytest.raises(DuelError, match="sealed_at_deadline"):
        decide(state, Submit("a", (Attack("left"),), SALT, by=ALICE), ScriptedRng([9, 9]))
    # the silent one may still send a late turn (the GM has not sealed a default one)
    state = _run(state, Submit("b", (Block("left"),), SALT, by=202), [4])
    assert state.missing() == ()


def test_the_gm_playing_a_fighter_reads_nothing_of_the_opponents_turn_before_sealing() -> None:
    comment = "Бьорн ревёт и рубит слева, щит держит справа"
    state = _run(
        _gm_plays_b(),
        Submit("a", (Attack("left", ap=2), Block("right")), SALT, comment, by=ALICE),
        [7, 3, 4],
    )
    gm = observe(state, Viewer(GM_ID, GM))
    raw = json.dumps(gm, ensure_ascii=False)
    assert gm["submissions"] == {} and "proposal" not in gm
    assert comment not in raw and '"direction"' not in raw and '"rolls"' not in raw
    assert gm["fighters"][0]["submitted"]  # who has sealed, as everyone sees
    state = _run(state, Submit("b", (Dodge("left"),), SALT), [6])  # the GM seals Такеда's
    gm = observe(state, Viewer(GM_ID, GM))
    assert set(gm["submissions"]) == {"a", "b"} and gm["proposal"]
    assert gm["submissions"]["a"]["comment"] == comment and gm["submissions"]["a"]["rolls"]


def test_the_gm_stops_the_duel_and_the_result_so_far_stands() -> None:
    from engine.duel import Stop

    state = _run(_gm_plays_b(), Submit("a", (Attack("left"),), SALT, by=ALICE), [5, 3])
    with pytest.raises(DuelError, match="gm_only"):
        decide(state, Stop(by=ALICE), ScriptedRng([]))
    stopped = _run(state, Stop(), [])
    assert stopped.over and stopped.stopped and stopped.pending == () and stopped.history == ()
    assert stopped.fighters == state.fighters  # where they stand
    with pytest.raises(DuelError, match="duel_over"):
        decide(stopped, Submit("b", (Dodge("left"),), SALT), ScriptedRng([4]))
    with pytest.raises(DuelError, match="duel_over"):
        decide(stopped, Stop(), ScriptedRng([]))
