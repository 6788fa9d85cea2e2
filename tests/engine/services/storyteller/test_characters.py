"""The library of a storyteller game: sheets as text or JSON, owners, NPC templates kept
from players, numbered copies in the fight."""

from __future__ import annotations

import pytest

from engine import services
from engine.dice.rng import ScriptedRng
from engine.services import storyteller as st
from engine.services.errors import NoCharacter, NotYourCharacter
from engine.storyteller.errors import StorytellerError
from engine.storyteller.sheet import EXAMPLE, character_to_json
from tests.engine.services.conftest import ALICE, BOB, CHAT, GM

GHOUL = "Имя: Гуль\nАтрибуты: Сила 3, Ловкость 2\nСпособности: Рукопашный бой 2\nСила воли: 3"


@pytest.fixture
async def table(users: None) -> services.GameInfo:
    game = await services.create_game(
        chat_id=CHAT,
        topic_id=None,
        system="storyteller",
        name="Мир тьмы",
        creator_id=GM,
        chat_title="Ролевая",
        chat_type="supergroup",
    )
    await services.join_game(game.id, ALICE)
    await services.join_game(game.id, BOB)
    return game


async def test_the_example_sheet_is_saved_as_is_and_comes_back(table: services.GameInfo) -> None:
    saved = await st.save_character(table.id, EXAMPLE, actor_id=ALICE)
    assert saved.owner_id == ALICE and saved.warnings == ()
    assert saved.character.name == "Вероника Штерн"
    assert saved.character.rating("firearms") == 3 and saved.character.armor is not None
    again = await st.get_character(table.id, "вероника штерн")
    assert again.character == saved.character
    # the sheet it prints is read back to the same character
    resaved = await st.save_character(table.id, again.sheet, actor_id=ALICE)
    assert resaved.id == saved.id and resaved.character == saved.character
    # JSON export and import
    other = character_to_json(saved.character).replace("Вероника Штерн", "Вера")
    imported = await st.save_character(table.id, other, actor_id=ALICE)
    assert imported.character.abilities == saved.character.abilities
    assert imported.name == "Вера"


async def test_owners_and_templates(table: services.GameInfo) -> None:
    await st.save_character(table.id, EXAMPLE, actor_id=ALICE)
    with pytest.raises(NotYourCharacter):  # Bob cannot replace Alice's character
        await st.save_character(table.id, EXAMPLE, actor_id=BOB)
    with pytest.raises(NotYourCharacter):
        await st.delete_character(table.id, "Вероника Штерн", actor_id=BOB)
    template = await st.save_character(table.id, GHOUL, actor_id=GM, template=True)
    assert template.template
    # a player sees no template, not even by its name; their own save under it is apart
    assert [r.name for r in await st.list_characters(table.id, viewer_id=BOB)] == ["Вероника Штерн"]
    with pytest.raises(NoCharacter):
        await st.get_character(table.id, "Гуль", viewer_id=BOB)
    mine = await st.save_character(table.id, GHOUL, actor_id=BOB)
    assert mine.owner_id == BOB and mine.id != template.id
    assert (await st.get_character(table.id, "Гуль", viewer_id=BOB)).id == mine.id
    assert (await st.get_character(table.id, "Гуль", viewer_id=GM)).id == template.id
    assert len(await st.list_characters(table.id, viewer_id=GM)) == 3
    with pytest.raises(StorytellerError) as err:
        await st.save_character(table.id, "Сила воли: 3", actor_id=GM)
    assert err.value.code == "sheet_no_name"


async def test_template_copies_join_the_fight(table: services.GameInfo) -> None:
    await st.save_character(table.id, GHOUL, actor_id=GM, template=True)
    await st.save_character(table.id, EXAMPLE, actor_id=ALICE)
    await st.start_fight(table.id, actor_id=GM)
    with pytest.raises(StorytellerError) as err:  # set-up is the GM's
        await st.add_to_fight(table.id, "Вероника Штерн", actor_id=ALICE, rng=ScriptedRng([]))
    assert err.value.code == "gm_only"
    await st.add_to_fight(table.id, "Гуль", actor_id=GM, count=2, rng=ScriptedRng([]))
    out = await st.add_to_fight(table.id, "Гуль", actor_id=GM, count=1, rng=ScriptedRng([]))
    names = [(f.id, f.character.name, f.owner) for f in out.state.fighters]
    assert names == [("gul_1", "Гуль 1", None), ("gul_2", "Гуль 2", None), ("gul", "Гуль", None)]
    with pytest.raises(StorytellerError) as err:  # copies only of a template
        await st.add_to_fight(table.id, "Вероника Штерн", actor_id=GM, count=2, rng=ScriptedRng([]))
    assert err.value.code == "bad_copies"
    out = await st.add_to_fight(table.id, "Вероника Штерн", actor_id=GM, rng=ScriptedRng([]))
    vera = out.state.fighter("veronika_shtern")
    assert vera.owner == ALICE and vera.character.name == "Вероника Штерн"
