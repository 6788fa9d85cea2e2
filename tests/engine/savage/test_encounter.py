"""Encounter management: groups of Extras, acting out of order, removal, refusals."""

from __future__ import annotations

import pytest

from engine.savage import (
    ActNow,
    AddCombatant,
    ApplyDamage,
    Attack,
    DealRound,
    DeclareActions,
    DrawNewCard,
    GiveBennies,
    Hold,
    NextTurn,
    RemoveCombatant,
    RuleError,
    SetCondition,
    SetStatus,
    TraitRoll,
    Unshake,
)
from engine.savage.events import FreeActionsOnly, Rolled, TurnEnded, TurnQueued, TurnStarted

from .helpers import Game, char, group, of


def setup() -> Game:
    game = Game()
    game.add("a", char("A (Дикий) Дух d6; Драка d8, Атлетика d6; Бенни 1", "a", owner=1))
    game.add("b", char("B (Дикий) Дух d6; Драка d8, Атлетика d6; Бенни 1", "b", owner=2))
    game.add("h", *group("Пустой (Статист, ×3) Дух d4; Драка d6", "h"), name="Пустые ×3")
    return game


def test_group_members_keep_their_own_state_and_actions() -> None:
    game = setup()
    game.run(DealRound(), game.shuffle("2S", "3S", "AC"))
    game.run(SetCondition("h-1", "shaken"))
    game.run(SetCondition("h-3", "shaken"))
    events = game.run(NextTurn(), [1, 4, 2])  # both Shaken roll Spirit (no Wild Die)
    assert [e.character for e in of(events, Rolled)] == ["h-1", "h-3"]
    assert [e.character for e in of(events, FreeActionsOnly)] == ["h-1"]
    game.run(TraitRoll("h-2", "fighting"), [3])
    game.run(TraitRoll("h-3", "fighting"), [3])  # each member has its own action
    with pytest.raises(RuleError, match="shaken_free_actions_only"):
        game.run(TraitRoll("h-1", "fighting"))
    with pytest.raises(RuleError, match="too_many_actions"):
        game.run(TraitRoll("h-2", "fighting"))


def test_acting_and_owners_for_the_announcement() -> None:
    game = setup()
    game.run(NextTurn(), game.shuffle("2S", "KS", "3C"))
    assert game.state.acting is not None and game.state.acting.id == "b"
    assert game.state.owners("b") == (2,) and game.state.owners("h") == ()


def test_act_now_from_hold_goes_right_after_the_current_turn() -> None:
    # Seed 000 lines 19-20: a held character acts «позднее» when it likes; going before
    # another's action needs an Interrupt (opposed Athletics). So «act now» while b acts
    # cuts nobody's turn short: a goes as soon as b's turn ends, before the next card.
    game = setup()
    game.run(NextTurn(), game.shuffle("KS", "QS", "JS"))
    game.run(Hold("a"))
    assert game.state.current == "b"
    events = game.run(ActNow("a", by=1))
    assert [type(e) for e in events] == [TurnQueued] and game.state.current == "b"
    assert game.state.up_next() == "a"
    with pytest.raises(RuleError, match="cannot_act_now"):
        game.run(ActNow("a", by=1))  # asked already
    with pytest.raises(RuleError, match="cannot_act_now"):
        game.run(ActNow("b"))
    events = game.run(NextTurn())
    assert [type(e) for e in events][:2] == [TurnEnded, TurnStarted]
    assert of(events, TurnStarted)[0].via == "hold" and game.state.current == "a"
    assert not game.state.combatant("a").hold and game.state.queued == ()
    game.run(NextTurn())
    assert game.state.current == "h"  # b already had its turn


def test_act_now_between_turns_starts_at_once() -> None:
    game = setup()
    game.run(NextTurn(), game.shuffle("KS", "QS", "JS"))
    game.run(Hold("a"))
    game.run(Hold("b"))
    game.run(Hold("h"))
    assert game.state.current is None  # everyone waits
    events = game.run(ActNow("b", by=2))
    assert [type(e) for e in events][:1] == [TurnStarted] and game.state.current == "b"


def test_a_queued_holder_who_is_shaken_loses_the_turn_it_asked_for() -> None:
    game = setup()
    game.run(NextTurn(), game.shuffle("KS", "QS", "JS"))
    game.run(Hold("a"))
    game.run(ActNow("a", by=1))
    game.run(SetCondition("a", "shaken"))
    assert game.state.queued == () and not game.state.combatant("a").hold
    game.run(NextTurn())
    assert game.state.current == "h"


def test_benny_card_refusals() -> None:
    game = setup()
    game.run(NextTurn(), game.shuffle("KS", "QS", "JS"))
    with pytest.raises(RuleError, match="already_acted"):
        game.run(DrawNewCard("a"))
    with pytest.raises(RuleError, match="no_bennies"):
        game.run(DrawNewCard("h"))
    game.run(DrawNewCard("b"))
    with pytest.raises(RuleError, match="no_bennies"):
        game.run(DrawNewCard("b"))
    game.run(GiveBennies("b", 2))
    assert game.c("b").bennies == 2


def test_remove_returns_the_card_and_clears_the_turn() -> None:
    game = setup()
    game.run(NextTurn(), game.shuffle("KS", "QS", "JS"))
    discards = len(game.state.deck.discard)
    game.run(RemoveCombatant("a"))
    assert game.state.current is None and len(game.state.deck.discard) == discards + 1
    with pytest.raises(RuleError, match="unknown_combatant"):
        game.run(TraitRoll("a", "spirit"))


def test_ids_are_unique() -> None:
    game = setup()
    with pytest.raises(RuleError, match="combatant_exists"):
        game.run(AddCombatant("x", "X", (char("X (Дикий) Драка d6", "a"),)))
    with pytest.raises(RuleError, match="bad_group_size"):
        game.run(AddCombatant("y", "Y", ()))


def test_players_are_refused_clearly() -> None:
    game = setup()
    game.run(NextTurn(), game.shuffle("KS", "QS", "JS"))
    with pytest.raises(RuleError, match="not_your_character") as err:
        game.run(Attack("a", "b", damage="d4", by=2))
    assert err.value.params == {"id": "a"}
    with pytest.raises(RuleError, match="gm_only"):
        game.run(ApplyDamage("b", amount=3, by=1))
    with pytest.raises(RuleError, match="not_your_turn"):
        game.run(DeclareActions("b", 2, by=2))
    with pytest.raises(RuleError, match="not_shaken"):
        game.run(Unshake("a", by=1))


def test_gm_status_corrections_are_checked() -> None:
    game = setup()
    with pytest.raises(RuleError, match="bad_modifier"):
        game.run(SetStatus("a", (("bennies", 5),)))
    with pytest.raises(RuleError, match="bad_amount"):
        game.run(SetStatus("a", (("wounds", 4),)))
    with pytest.raises(RuleError, match="unknown_condition"):
        game.run(SetCondition("a", "flying"))


def test_incapacitated_and_dead_cannot_act() -> None:
    game = setup()
    game.run(NextTurn(), game.shuffle("KS", "QS", "JS"))
    game.run(SetStatus("a", (("incapacitated", 1),)))
    with pytest.raises(RuleError, match="incapacitated"):
        game.run(TraitRoll("a", "spirit"))
    game.run(SetStatus("a", (("dead", 1),)))
    with pytest.raises(RuleError, match="bad_target"):
        game.run(Attack("b", "a", damage="d4", free=True))
