"""The characters library of a game and adding its entries to the encounter."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from engine import savage, services
from engine.savage import RuleError
from engine.services import savage as swade
from engine.services.library import KEY_MAX, name_key, private_key, slug
from engine.services.savage.characters import resolve_owner
from tests.engine.services.conftest import ALICE, BOB, CAROL, CHAT, GM
from tests.engine.services.savage.test_encounters import GRIMMJOW, HOLLOWS, ICHIGO, RUKIA


@pytest.fixture
async def party(game: services.GameInfo) -> services.GameInfo:
    await services.join_game(game.id, ALICE)
    await services.join_game(game.id, BOB)
    return game


async def test_a_player_saves_their_own_character(party: services.GameInfo) -> None:
    saved = await swade.save_character(party.id, ICHIGO, actor_id=ALICE)
    assert (saved.name, saved.owner_id, saved.count, saved.template) == ("Ичиго", ALICE, 1, False)
    assert saved.character.owner == ALICE and saved.character.wild
    assert saved.character.bennies == 3 and saved.character.has_edge("level_headed")
    # the sheet names the player, and the name reads back as the same owner
    assert saved.owner_name is not None and f"игрок {saved.owner_name})" in saved.sheet
    spec = await resolve_owner(party.id, savage.parse_sheet(saved.sheet))
    assert spec.character == saved.character
    assert await swade.get_character(party.id, "  ИЧИГО ") == saved
    assert await swade.get_character(party.id, saved.id) == saved
    assert await swade.get_character(party.id, str(saved.id)) == saved


async def test_players_cannot_save_for_others(party: services.GameInfo) -> None:
    with pytest.raises(services.NotYourCharacter):
        await swade.save_character(party.id, RUKIA, actor_id=ALICE, owner_id=BOB)
    with pytest.raises(services.NotYourCharacter):  # «игрок N» in the block
        await swade.save_character(party.id, f"Рукия (Дикая, игрок {BOB}) Дух d8", actor_id=ALICE)
    await swade.save_character(party.id, RUKIA, actor_id=BOB)
    with pytest.raises(services.NotYourCharacter):  # replacing Bob's by its name
        await swade.save_character(party.id, "Рукия (Дикая) Дух d4", actor_id=ALICE)
    with pytest.raises(services.NotMember):
        await swade.save_character(party.id, ICHIGO, actor_id=CAROL)


async def test_a_template_name_is_saved_apart_for_a_player(party: services.GameInfo) -> None:
    template = await swade.save_character(party.id, GRIMMJOW, actor_id=GM)
    # the template's name is the GM's secret: the player's save answers as for a free name
    mine = await swade.save_character(party.id, "Гриммджо (Дикий) Дух d4", actor_id=ALICE)
    assert mine.id != template.id and mine.owner_id == ALICE
    assert (await swade.get_character(party.id, "гриммджо")).id == template.id
    assert (await swade.get_character(party.id, "гриммджо")).character.die("spirit") == (
        savage.parse_die("d8")
    )
    again = await swade.save_character(party.id, "Гриммджо (Дикий) Дух d6", actor_id=ALICE)
    assert again.id == mine.id and again.character.die("spirit") == savage.parse_die("d6")
    bobs = await swade.save_character(party.id, "ГРИММДЖО (Дикий) Дух d8", actor_id=BOB)
    assert bobs.id not in (mine.id, template.id)
    # the GM still replaces the template by its name
    replaced = await swade.save_character(party.id, "Гриммджо Дух d12", actor_id=GM)
    assert replaced.id == template.id and replaced.template
    # the player's entry stays theirs after the template is gone
    await swade.delete_character(party.id, template.id, actor_id=GM)
    last = await swade.save_character(party.id, "Гриммджо (Дикий) Дух d10", actor_id=ALICE)
    assert last.id == mine.id
    assert len(await swade.list_characters(party.id)) == 2


def test_a_kept_apart_key_fits_the_column_and_never_is_a_name_key() -> None:
    short = private_key(name_key("Гриммджо"), ALICE)
    assert short == f"гриммджо\t{ALICE}" and name_key(short) != short
    long_a, long_b = name_key("а" * 250 + "б"), name_key("а" * 250 + "в")
    assert len(private_key(long_a, ALICE)) <= KEY_MAX
    assert private_key(long_a, ALICE) != private_key(long_b, ALICE)
    assert private_key(long_a, ALICE) != private_key(long_a, BOB)


async def test_the_gm_saves_templates_and_anyones_characters(party: services.GameInfo) -> None:
    hollows = await swade.save_character(party.id, HOLLOWS, actor_id=GM)
    assert hollows.template and hollows.count == 3 and not hollows.character.wild
    rukia = await swade.save_character(party.id, RUKIA, actor_id=GM, owner_id=BOB)
    assert rukia.owner_id == BOB and rukia.character.owner == BOB
    with pytest.raises(services.NotMember):  # the owner must play in the game
        await swade.save_character(party.id, ICHIGO, actor_id=GM, owner_id=CAROL)
    # Saving under the same name replaces the entry (names compare case- and ё-blind).
    again = await swade.save_character(party.id, "пустой (×5) Драка d8", actor_id=GM)
    assert again.id == hollows.id and again.count == 5 and again.name == "пустой"
    assert [r.name for r in await swade.list_characters(party.id)] == ["пустой", "Рукия"]


async def test_json_import_and_sheet_errors(party: services.GameInfo) -> None:
    grimmjow = await swade.save_character(party.id, GRIMMJOW, actor_id=GM)
    data = json.loads(savage.character_to_json(grimmjow.character))
    copy = await swade.save_character(
        party.id, json.dumps({**data, "name": "Копия", "count": 2}), actor_id=GM
    )
    assert copy.count == 2 and copy.character.die("fighting") == savage.parse_die("d12")
    mine = await swade.save_character(party.id, {**data, "name": "Мой"}, actor_id=ALICE)
    assert mine.owner_id == ALICE  # a player's JSON import becomes theirs
    with pytest.raises(RuleError) as err:
        await swade.save_character(party.id, "Ичиго Ловкость d7", actor_id=ALICE)
    assert err.value.code == "sheet_bad_die" and err.value.params["fragment"] == "Ловкость d7"
    with pytest.raises(RuleError) as err:
        await swade.save_character(party.id, '{"name": ', actor_id=GM)
    assert err.value.code == "sheet_bad_json"
    with pytest.raises(RuleError) as err:
        await swade.save_character(party.id, {**data, "count": 99}, actor_id=GM)
    assert err.value.code == "bad_group_size"
    with pytest.raises(services.BadName):
        await swade.save_character(party.id, {**data, "name": "я" * 256}, actor_id=GM)


async def test_listing_hides_npc_templates_from_players(party: services.GameInfo) -> None:
    await swade.save_character(party.id, HOLLOWS, actor_id=GM)
    await swade.save_character(party.id, ICHIGO, actor_id=ALICE)
    await swade.save_character(party.id, RUKIA, actor_id=BOB)
    everything = ["Ичиго", "Пустой", "Рукия"]
    assert [r.name for r in await swade.list_characters(party.id)] == everything
    assert [r.name for r in await swade.list_characters(party.id, viewer_id=GM)] == everything
    assert [r.name for r in await swade.list_characters(party.id, viewer_id=BOB)] == [
        "Ичиго",
        "Рукия",
    ]
    with pytest.raises(services.NotMember):
        await swade.list_characters(party.id, viewer_id=CAROL)


async def test_delete_own_or_as_gm(party: services.GameInfo) -> None:
    await swade.save_character(party.id, ICHIGO, actor_id=ALICE)
    await swade.save_character(party.id, RUKIA, actor_id=BOB)
    with pytest.raises(services.NotYourCharacter):
        await swade.delete_character(party.id, "Рукия", actor_id=ALICE)
    await swade.delete_character(party.id, "Ичиго", actor_id=ALICE)
    await swade.delete_character(party.id, "Рукия", actor_id=GM)
    assert await swade.list_characters(party.id) == []
    with pytest.raises(services.NoCharacter):
        await swade.get_character(party.id, "Ичиго")
    with pytest.raises(services.NoCharacter):
        await swade.delete_character(party.id, "Ичиго", actor_id=GM)


async def test_only_savage_games_have_a_library(users: None) -> None:
    game = await services.create_game(
        chat_id=CHAT, topic_id=None, system="duel", name="Дуэль", creator_id=GM
    )
    with pytest.raises(services.WrongSystem):
        await swade.save_character(game.id, ICHIGO, actor_id=GM)
    with pytest.raises(services.WrongSystem):
        await swade.list_characters(game.id)
    with pytest.raises(services.NoGame):
        await swade.get_character(404, "Ичиго")


# --- into the encounter --------------------------------------------------------------------


def test_ids_are_short_ascii_slugs() -> None:
    assert slug("Пустой") == "pustoy" and slug("Ичиго Куросаки") == "ichigo_kurosaki"
    assert slug("Ёж-2!") == "ezh_2" and slug("???") == "npc" and len(slug("Щ" * 40)) == 24


async def test_a_template_becomes_a_group_of_extras(party: services.GameInfo) -> None:
    await swade.save_character(party.id, HOLLOWS, actor_id=GM)
    await swade.save_character(party.id, ICHIGO, actor_id=ALICE)
    await swade.start_encounter(party.id, actor_id=GM)
    rng = random.Random(2)
    first = await swade.add_to_encounter(party.id, "пустой", actor_id=GM, rng=rng)
    group = first.state.combatant("pustoy")
    assert group.group and group.name == "Пустой ×3"
    assert [(m.id, m.name, m.wild) for m in group.members] == [
        ("pustoy-1", "Пустой 1", False),
        ("pustoy-2", "Пустой 2", False),
        ("pustoy-3", "Пустой 3", False),
    ]
    second = await swade.add_to_encounter(party.id, "Пустой", actor_id=GM, count=2, rng=rng)
    assert [m.id for m in second.state.combatant("pustoy_2").members] == [
        "pustoy_2-1",
        "pustoy_2-2",
    ]
    single = await swade.add_to_encounter(party.id, "Пустой", actor_id=GM, count=1, rng=rng)
    assert not single.state.combatant("pustoy_3").group
    hero = await swade.add_to_encounter(party.id, "Ичиго", actor_id=GM, rng=rng)
    assert hero.state.owners("ichigo") == (ALICE,)

    with pytest.raises(RuleError) as err:  # the engine: adding combatants is the GM's
        await swade.add_to_encounter(party.id, "Ичиго", actor_id=ALICE, rng=rng)
    assert err.value.code == "gm_only"
    with pytest.raises(RuleError) as err:
        await swade.add_to_encounter(party.id, "Пустой", actor_id=GM, count=51, rng=rng)
    assert err.value.code == "bad_group_size"
    with pytest.raises(services.NoCharacter):
        await swade.add_to_encounter(party.id, "Кенпачи", actor_id=GM, rng=rng)


async def test_simultaneous_adds_get_distinct_ids(party: services.GameInfo) -> None:
    await swade.save_character(party.id, GRIMMJOW, actor_id=GM)
    await swade.start_encounter(party.id, actor_id=GM)
    rng = random.Random(4)
    outs = await asyncio.gather(
        *(swade.add_to_encounter(party.id, "Гриммджо", actor_id=GM, rng=rng) for _ in "abc")
    )
    final = max(outs, key=lambda o: o.seq).state
    assert [c.id for c in final.combatants] == ["grimmdzho", "grimmdzho_2", "grimmdzho_3"]
    assert sorted(o.step_id or 0 for o in outs) == [1, 2, 3]


async def test_adding_needs_an_encounter(party: services.GameInfo) -> None:
    await swade.save_character(party.id, GRIMMJOW, actor_id=GM)
    with pytest.raises(swade.NoEncounter):
        await swade.add_to_encounter(party.id, "Гриммджо", actor_id=GM, rng=random.Random())


async def test_the_gm_names_the_player_in_the_block(party: services.GameInfo) -> None:
    """«игрок Имя» is the member of that first name (issue 12, item 7); an unknown name is
    refused, naming it."""
    user = await services.get_user(BOB)
    assert user is not None
    block = ICHIGO.replace("(Дикий)", f"(Дикий, игрок {user.first_name.upper()})")
    saved = await swade.save_character(party.id, block, actor_id=GM)
    assert saved.owner_id == BOB and saved.owner_name == user.first_name
    with pytest.raises(RuleError) as error:
        await swade.save_character(
            party.id, ICHIGO.replace("(Дикий)", "(игрок Нектор)"), actor_id=GM
        )
    assert error.value.code == "sheet_unknown_owner" and error.value.params["name"] == "Нектор"


async def test_saving_names_what_it_kept_unknown(party: services.GameInfo) -> None:
    saved = await swade.save_character(party.id, ICHIGO + "; Кулинария d6", actor_id=ALICE)
    assert saved.character.die("кулинария") is not None
    assert [w.params["name"] for w in saved.warnings] == ["Кулинария"]
    again = await swade.get_character(party.id, "Ичиго")
    assert again.warnings == ()  # a warning belongs to the text just pasted
