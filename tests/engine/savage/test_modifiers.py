"""roll_modifiers: automatic, labelled modifiers for one character's rolls."""

from __future__ import annotations

from engine.savage import (
    DealRound,
    DeclareActions,
    NextTurn,
    SetCondition,
    SetStatus,
    roll_modifiers,
)
from engine.savage.character import Condition

from .helpers import Game, char, group


def labels(game: Game, cid: str, kind: str, trait: str = "") -> dict[str, int]:
    return {m.label: m.value for m in roll_modifiers(game.state, cid, kind, trait=trait)}


def setup() -> Game:
    game = Game()
    game.add("a", char("A (Дикий) Драка d8", "a"))
    game.add("n", char("N (Дикий) Драка d8; Черты: Стальные нервы", "n"))
    game.add("h", *group("Пустой (Статист, ×3) Драка d6", "h"))
    return game


def test_group_joker_reaches_every_member_and_no_one_else() -> None:
    # seed 000 line 14: the Joker's +2 is the holder's (here a group acting on one card)
    game = setup()
    game.run(DealRound(), game.shuffle("2S", "3S", "JokerB"))
    for member in ("h-1", "h-2", "h-3"):
        assert labels(game, member, "action") == {"joker": 2}
        assert labels(game, member, "damage") == {"joker": 2}
    assert labels(game, "a", "action") == {} and labels(game, "n", "damage") == {}


def test_wounds_fatigue_distracted_stack_with_labels() -> None:
    game = setup()
    game.run(SetStatus("a", (("wounds", 2), ("fatigue", 1))))
    game.run(SetCondition("a", "entangled"))  # line 81: Entangled counts as Distracted
    assert labels(game, "a", "free") == {"wounds": -2, "fatigue": -1, "distracted": -2}
    assert labels(game, "a", "damage") == {}  # wounds never touch damage


def test_nerves_of_steel_ignores_one_wound() -> None:
    game = setup()
    game.run(SetStatus("n", (("wounds", 1),)))
    assert labels(game, "n", "free") == {}
    game.run(SetStatus("n", (("wounds", 3),)))
    assert labels(game, "n", "free") == {"wounds": -2}


def test_multi_action_and_support_only_on_action_rolls() -> None:
    game = setup()
    game.run(DealRound(), game.shuffle("KS", "3S", "2C"))
    game.run(NextTurn())
    game.run(DeclareActions("a", 3))
    game.state = game.state.update_character(
        "a", lambda c: c.with_conditions((Condition("support", "end", 1, 2, "fighting"),))
    )
    assert labels(game, "a", "action", "fighting") == {"multi_action": -4, "support": 2}
    assert labels(game, "a", "action", "notice") == {"multi_action": -4}
    assert labels(game, "a", "free", "fighting") == {}
