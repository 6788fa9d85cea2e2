"""What each observer sees of an encounter (engine/savage/observe.py; DESIGN decision 3: a
sheet is the GM's and its owner's only; seed 000 names what a sheet holds)."""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

from engine.observe import GM, PLAYER, PUBLIC, SPECTATOR
from engine.savage import NextTurn
from engine.savage.observe import encounter_audience, observe_encounter
from tests.engine.savage.helpers import Game, char, group

ANYA, BORYA, VERA = 11, 12, 13


@dataclass(frozen=True)
class Seat:
    user_id: int
    role: str


def fight() -> Game:
    g = Game()
    g.add("ichigo", char("Ичиго (Дикий) Ловкость d8, Драка d10", "ichigo", owner=ANYA))
    g.add("rukiya", char("Рукия (Дикий) Драка d8", "rukiya", owner=BORYA))
    g.add("pustye", *group("Пустой ×2 Драка d6", "pustoy"), name="Пустые")
    g.run(NextTurn(), rng=random.Random(3))
    return g


def sheets(view: dict) -> set[str]:
    return {m["id"] for c in view["combatants"] for m in c["members"] if "sheet" in m}


def test_the_gm_sees_every_sheet_a_player_their_own_a_spectator_none() -> None:
    state = fight().state
    seen = {
        who: sheets(observe_encounter(state, Seat(uid, role), stream="encounter:1", seq=5))
        for who, uid, role in (
            ("gm", 1, GM), ("anya", ANYA, PLAYER), ("vera", VERA, PLAYER), ("guest", 99, SPECTATOR)
        )
    }  # fmt: skip
    everyone = {m.id for c in state.combatants for m in c.members}
    assert {"ichigo", "rukiya"} < everyone  # and the NPCs, the GM's
    assert seen["gm"] == everyone and seen["anya"] == {"ichigo"}
    assert seen["vera"] == set() and seen["guest"] == set()
    public = observe_encounter(state, Seat(99, SPECTATOR), stream="encounter:1", seq=5)
    assert public["deck"].keys() == {"draw", "discard", "reshuffle"}  # counts, not the order
    assert public["round"] == 1 and public["current"] is not None


def test_observers_with_one_audience_key_see_one_json() -> None:
    state = fight().state
    seats = [Seat(1, GM), Seat(ANYA, PLAYER), Seat(BORYA, PLAYER), Seat(VERA, PLAYER)]
    seats += [Seat(99, SPECTATOR), Seat(ANYA, SPECTATOR)]

    def view(seat: Seat) -> dict:
        return observe_encounter(state, seat, stream="encounter:1", seq=5)

    for a, b in itertools.combinations(seats, 2):
        if encounter_audience(state, a) == encounter_audience(state, b):
            assert view(a) == view(b), (a, b)
    assert encounter_audience(state, Seat(VERA, PLAYER)) == PUBLIC
    assert encounter_audience(state, Seat(99, SPECTATOR)) == PUBLIC
    assert encounter_audience(state, Seat(ANYA, PLAYER)) != PUBLIC
