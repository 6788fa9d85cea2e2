"""A Storyteller game's options: set by the GM, kept in `games.options` (only what differs
from the defaults), copied into every new fight; a running fight keeps its copy."""

from __future__ import annotations

import dataclasses

import pytest

from engine import services
from engine.dice.rng import ScriptedRng
from engine.services import storyteller as st
from engine.services.errors import NotGm, WrongSystem
from engine.services.savage.table import set_quiet_mode
from engine.services.storyteller.options import KEY, game_options, load_options, set_options
from engine.store.models import Game
from engine.storyteller import commands as cmd
from engine.storyteller import events as ev
from engine.storyteller.errors import StorytellerError
from engine.storyteller.options import ATTRIBUTE_ONLY, DEFAULT_OPTIONS, Armor, Weapon
from tests.engine.services.conftest import ALICE, CHAT, GM
from tests.engine.services.storyteller.test_fights import PUNCHER, THUG


@pytest.fixture
async def table(users: None) -> services.GameInfo:
    game = await services.create_game(
        chat_id=CHAT, topic_id=None, system="storyteller", name="Мир тьмы", creator_id=GM
    )
    await services.join_game(game.id, ALICE)
    return game


async def test_the_gm_sets_them_and_only_the_changes_are_stored(
    table: services.GameInfo,
) -> None:
    assert await load_options(table.id) == DEFAULT_OPTIONS
    # «Это усложняет действие или делает его невозможным»: this GM reads «the attribute alone»
    wanted = dataclasses.replace(
        DEFAULT_OPTIONS,
        missing_ability=ATTRIBUTE_ONLY,
        armor=(*DEFAULT_OPTIONS.armor, Armor("Кольчуга", 3, 2)),
    )
    await set_options(table.id, wanted, actor_id=GM)
    stored = (await Game.get(id=table.id)).options or {}
    assert set(stored[KEY]) == {"missing_ability", "armor"}
    assert await load_options(table.id) == wanted
    # read with the game, by the same statement
    assert game_options(await services.get_game(table.id)) == wanted
    # another system's key of the column survives, and ours survives theirs
    await Game.filter(id=table.id).update(options={**stored, "other": 1})
    await set_options(table.id, DEFAULT_OPTIONS, actor_id=GM)
    assert (await Game.get(id=table.id)).options == {"other": 1}


async def test_a_player_and_another_system_are_refused(table: services.GameInfo) -> None:
    with pytest.raises(NotGm):
        await set_options(table.id, DEFAULT_OPTIONS, actor_id=ALICE)
    savage = await services.create_game(
        chat_id=CHAT - 1, topic_id=None, system="savage", name="g", creator_id=GM
    )
    with pytest.raises(WrongSystem):
        await set_options(savage.id, DEFAULT_OPTIONS, actor_id=GM)
    await set_quiet_mode(savage.id, True, actor_id=GM)  # the shared column is untouched


async def test_every_new_fight_starts_with_them_and_a_running_one_keeps_its_copy(
    table: services.GameInfo,
) -> None:
    no_review = dataclasses.replace(DEFAULT_OPTIONS, gm_review=False)
    await set_options(table.id, no_review, actor_id=GM)
    started = await st.start_fight(table.id, actor_id=GM)
    assert started.state.options == no_review
    await st.save_character(table.id, PUNCHER, actor_id=ALICE)
    await st.save_character(table.id, THUG, actor_id=GM, template=True)
    await st.add_to_fight(table.id, "Макс", actor_id=GM, rng=ScriptedRng([]))
    await st.add_to_fight(table.id, "Бандит", actor_id=GM, rng=ScriptedRng([]))
    # the game changes its mind mid-fight: the running fight keeps what it began with
    await set_options(table.id, DEFAULT_OPTIONS, actor_id=GM)
    view = await st.current_fight(table.id)
    assert view is not None and view.state.options == no_review
    ids = [f.id for f in view.state.fighters]
    await st.fight_command(table.id, cmd.StartTurn(), actor_id=GM, rng=ScriptedRng([9, 1]))
    out = await st.fight_command(
        table.id,
        cmd.Attack(ids[0], ids[1], "Кулак"),
        actor_id=ALICE,
        rng=ScriptedRng([2] * 6),
    )
    # no review in this fight: the attack is published at once
    assert any(isinstance(e, ev.AttackResolved) for e in out.events)
    # undone back to its start, the fight still has its own options (the stream's params)
    for _ in range(4):
        await st.undo_fight(table.id, actor_id=GM)
    again = await st.current_fight(table.id)
    assert again is not None and again.state.fighters == ()
    assert again.state.options == no_review
    await st.end_fight(table.id, actor_id=GM)
    fresh = await st.start_fight(table.id, actor_id=GM)
    assert fresh.state.options == DEFAULT_OPTIONS


async def test_a_sheet_names_the_rows_of_the_games_tables(table: services.GameInfo) -> None:
    # «Броня: ...» and «Оружие: ...» by a name alone are rows of the game's own tables
    rapier = Weapon("Шпага", 2, "lethal", 5, "melee", strength=True)
    mail = Armor("Кольчуга", 3, 2)
    house = dataclasses.replace(
        DEFAULT_OPTIONS,
        weapons=(*DEFAULT_OPTIONS.weapons, rapier),
        armor=(*DEFAULT_OPTIONS.armor, mail),
    )
    sheet = "Имя: Дуэлянт\nОружие: Шпага\nБроня: Кольчуга"
    with pytest.raises(StorytellerError):  # not a row of the default tables
        await st.save_character(table.id, sheet, actor_id=ALICE)
    await set_options(table.id, house, actor_id=GM)
    saved = await st.save_character(table.id, sheet, actor_id=ALICE)
    assert saved.character.weapons == (rapier,) and saved.character.armor == mail
