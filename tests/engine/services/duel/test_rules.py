"""The game's readings of the duel seed (engine/services/duel/rules.py): set by the GM for the
game, taken by every duel started afterwards; docs/rules/duel.md quotes the seed sentence of
each («В случае ничьей защита > атака» for the tied dodge)."""

from __future__ import annotations

import random

import pytest

from engine import duel
from engine.duel.options import NEW_GAME_OPTIONS
from engine.services import duel as duels
from engine.services import get_game
from engine.services.duel.rules import RULES
from engine.services.errors import NotGm
from engine.store.models import Game
from tests.engine.services.conftest import ALICE, GM

from .conftest import TOPIC


async def test_a_game_starts_with_the_readings_of_docs_rules(duel_game) -> None:
    game = await get_game(duel_game.id)
    # stored on the game when it was created (issue 26 item 8): the seed's words where the
    # older readings stretched them
    assert duels.game_rules(game) == NEW_GAME_OPTIONS
    assert game.options[RULES]["trick_contest"] == "opposed"
    assert NEW_GAME_OPTIONS != duel.DEFAULT_OPTIONS
    assert duels.choices("dodge_tie") == ("defense", "attack")  # the default first
    assert duels.choices("exhaustion") == ("counter", "sp")
    assert duels.next_value(duel.DEFAULT_OPTIONS, "sp_cap") == 4


async def test_a_game_created_before_keeps_the_older_readings(duel_game) -> None:
    """A changed default never changes a game already running: a game stored without them
    (created before they were stored) reads the engine's older ones, its duels too."""
    await Game.filter(id=duel_game.id).update(options=None)
    game = await get_game(duel_game.id)
    assert duels.game_rules(game) == duel.DEFAULT_OPTIONS
    out = await duels.start_duel(
        duel_game.id, thread=TOPIC, a="Бьорн", b="Такеда", actor_id=GM, rng=random.Random(1)
    )
    assert out.state.options.trick_contest == "checked" and out.state.options.exhaustion == "sp"


async def test_the_gms_reading_is_the_games_and_the_next_duel_takes_it(duel_game) -> None:
    with pytest.raises(NotGm):
        await duels.set_rule(duel_game.id, "dodge_tie", "attack", actor_id=ALICE)
    rules = await duels.set_rule(duel_game.id, "dodge_tie", "attack", actor_id=GM)
    rules = await duels.set_rule(duel_game.id, "sp_cap", 6, actor_id=GM)
    assert (rules.dodge_tie, rules.sp_cap) == ("attack", 6)
    game = await get_game(duel_game.id)
    assert duels.game_rules(game) == rules
    out = await duels.start_duel(
        duel_game.id, thread=TOPIC, a="Бьорн", b="Такеда", actor_id=GM, rng=random.Random(1)
    )
    assert out.state.options.dodge_tie == "attack" and out.state.options.sp_cap == 6


async def test_an_option_or_value_that_does_not_exist_is_refused(duel_game) -> None:
    with pytest.raises(ValueError):
        await duels.set_rule(duel_game.id, "dodge_tie", "draw", actor_id=GM)
    with pytest.raises(ValueError):
        await duels.set_rule(duel_game.id, "no_such_rule", True, actor_id=GM)
    # a yes/no is not a number (True == 1), nor a number a yes/no
    with pytest.raises(ValueError):
        await duels.set_rule(duel_game.id, "series_bonus", True, actor_id=GM)
    with pytest.raises(ValueError):
        await duels.set_rule(duel_game.id, "unblockable_parry", 0, actor_id=GM)
    assert duels.game_rules(await get_game(duel_game.id)) == NEW_GAME_OPTIONS
