"""Names entering a game through the services (engine/services/names.py), for every rule
system: normalised before they are kept, refused — before the database sees them — when
nothing visible is left, when too long, or when they look just like another name of the game.
Real SQLite, as the other service tests."""

from __future__ import annotations

import random

import pytest

from engine import services
from engine.duel import format_sheet
from engine.services import duel as duels
from engine.services import savage as swade
from engine.services import storyteller as st
from engine.services.errors import BadName, NameEmpty, NameLooksAlike, NameTooLong
from engine.services.names import checked_name, row_id, sought_name
from engine.store.models import SavedCharacter
from tests.engine.duel.six_turns import BJORN
from tests.engine.services.conftest import ALICE, BOB, CHAT, GM
from tests.engine.services.savage.test_encounters import GRIMMJOW, HOLLOWS, ICHIGO

GHOUL = "Имя: Гуль\nАтрибуты: Сила 3, Ловкость 2\nСпособности: Рукопашный бой 2"


@pytest.fixture
async def party(game: services.GameInfo) -> services.GameInfo:
    await services.join_game(game.id, ALICE)
    await services.join_game(game.id, BOB)
    return game


async def _names(game_id: int) -> list[str]:
    return sorted(await SavedCharacter.filter(game_id=game_id).values_list("name", flat=True))


def test_the_checks_of_one_name() -> None:
    assert checked_name("  И\u200bчиго \u202e ") == "Ичиго"
    with pytest.raises(NameEmpty):
        checked_name("\u200b\u200c\u200d\u2060\ufeff\u202e")
    with pytest.raises(NameTooLong) as error:
        checked_name("Я" * 256)
    assert error.value.params == {"max": 255}
    assert checked_name("Я" * 255 + "\u200b" * 40) == "Я" * 255  # invisible ones do not count
    with pytest.raises(NameTooLong):
        checked_name("Я" * 65, 64)
    assert isinstance(NameLooksAlike(name="a", existing="а"), BadName)  # one family of refusals
    with pytest.raises(NameTooLong):
        sought_name("Я" * 300)
    assert sought_name("") == ""
    assert row_id(7) == 7 and row_id(" 7 ") == 7 and row_id("Ичиго") is None
    assert row_id("9" * 40) == -1 and row_id(0) == -1  # found nowhere, never sent to the database


async def test_a_zero_width_space_is_not_kept(party: services.GameInfo) -> None:
    saved = await swade.save_character(
        party.id, ICHIGO.replace("Ичиго", "И\u200bчиго"), actor_id=ALICE
    )
    assert saved.name == "Ичиго" and saved.character.name == "Ичиго"
    # the same name typed with the invisible space finds it, and saving it again replaces it
    assert (await swade.get_character(party.id, "Ичи\u200bго")).id == saved.id
    again = await swade.save_character(party.id, ICHIGO, actor_id=ALICE)
    assert again.id == saved.id
    assert await _names(party.id) == ["Ичиго"]


async def test_a_right_to_left_override_is_removed(party: services.GameInfo) -> None:
    saved = await swade.save_character(party.id, "\u202eРукия (Дикая) Дух d8", actor_id=BOB)
    assert saved.name == "Рукия" and "\u202e" not in saved.sheet


async def test_a_name_of_invisible_characters_only_is_refused(party: services.GameInfo) -> None:
    with pytest.raises(NameEmpty):
        await swade.save_character(party.id, {"id": "", "name": "\u200b\u200d\u2060"}, actor_id=GM)
    with pytest.raises(NameEmpty):
        await swade.save_character(party.id, "\u2060\u200b (Дикий) Дух d8", actor_id=GM)
    assert await _names(party.id) == []


async def test_a_latin_letter_beside_the_real_name_is_refused(party: services.GameInfo) -> None:
    await swade.save_character(party.id, GRIMMJOW, actor_id=GM)
    with pytest.raises(NameLooksAlike) as error:
        await swade.save_character(party.id, GRIMMJOW.replace("Гриммджо", "Гриммджo"), actor_id=GM)
    assert error.value.params == {"name": "Гриммджo", "existing": "Гриммджо"}
    # the same name, in other case, is the same entry: replaced, as before
    replaced = await swade.save_character(
        party.id, GRIMMJOW.replace("Гриммджо", "ГРИММДЖО"), actor_id=GM
    )
    assert replaced.name == "ГРИММДЖО"
    assert await _names(party.id) == ["ГРИММДЖО"]


async def test_a_player_s_name_is_not_compared_with_the_gm_s_templates(
    party: services.GameInfo,
) -> None:
    """A template's name is the GM's secret: a refusal naming it would tell it."""
    await swade.save_character(party.id, GRIMMJOW, actor_id=GM)  # a template
    mine = await swade.save_character(party.id, "Гриммджo (Дикий) Дух d4", actor_id=ALICE)
    assert mine.owner_id == ALICE
    # but a player character is anyone's to see: compared
    with pytest.raises(NameLooksAlike) as error:
        await swade.save_character(party.id, "Гpиммджo (Дикий) Дух d4", actor_id=BOB)
    assert error.value.params["existing"] == "Гриммджo"


async def test_numbered_extras_keep_their_numbers(party: services.GameInfo) -> None:
    await swade.save_character(party.id, HOLLOWS, actor_id=GM)
    await swade.start_encounter(party.id, actor_id=GM)
    rng = random.Random(3)
    await swade.add_to_encounter(party.id, "Пустой", actor_id=GM, count=2, rng=rng)
    out = await swade.add_to_encounter(party.id, "Пус\u200bтой", actor_id=GM, count=2, rng=rng)
    assert [m.name for m in out.state.characters] == [
        "Пустой 1",
        "Пустой 2",
        "Пустой 3",
        "Пустой 4",
    ]


async def test_a_name_too_long_is_refused_before_the_database(party: services.GameInfo) -> None:
    with pytest.raises(NameTooLong):
        await swade.save_character(party.id, "Я" * 300 + " (Дикий) Дух d8", actor_id=GM)
    await swade.start_encounter(party.id, actor_id=GM)
    for lookup in (swade.get_character, st.get_character):
        with pytest.raises(NameTooLong):
            await lookup(party.id, "Я" * 300)
    with pytest.raises(NameTooLong):
        await swade.add_to_encounter(party.id, "Я" * 300, actor_id=GM, rng=random.Random(1))
    with pytest.raises(services.NoCharacter):  # an id no row can have
        await swade.get_character(party.id, "9" * 40)


async def test_the_storyteller_library_checks_names_the_same_way(users: None) -> None:
    game = await services.create_game(
        chat_id=CHAT + 1, topic_id=None, system="storyteller", name="Мир тьмы", creator_id=GM
    )
    await services.join_game(game.id, ALICE)
    saved = await st.save_character(game.id, GHOUL.replace("Гуль", "Г\u200bуль"), actor_id=GM)
    assert saved.name == "Гуль" and saved.character.name == "Гуль"
    with pytest.raises(NameLooksAlike):  # /npc of a Latin «y»
        await st.save_character(game.id, GHOUL.replace("Гуль", "Гyль"), actor_id=GM, template=True)
    with pytest.raises(NameEmpty):
        await st.save_character(game.id, GHOUL.replace("Гуль", "\u202e\u200b"), actor_id=GM)
    with pytest.raises(NameTooLong):
        await st.save_character(game.id, GHOUL.replace("Гуль", "Я" * 256), actor_id=GM)
    with pytest.raises(NameTooLong):  # the fight's /add of a name no entry can have
        await st.add_to_fight(game.id, "Я" * 300, actor_id=GM, rng=random.Random(1))
    assert await _names(game.id) == ["Гуль"]


async def test_duel_fighters_and_game_titles_too(users: None) -> None:
    game = await services.create_game(
        chat_id=CHAT + 2, topic_id=None, system="duel", name="\u202eАрена\u200b", creator_id=GM
    )
    assert game.name == "Арена"
    await services.join_game(game.id, ALICE)
    record, _ = await duels.save_fighter(
        game.id, format_sheet(BJORN).replace("Бьорн", "Бь\u200bорн"), actor_id=ALICE
    )
    assert record.name == "Бьорн" and record.fighter.name == "Бьорн"
    with pytest.raises(NameLooksAlike):  # a Latin «o»
        await duels.save_fighter(
            game.id, format_sheet(BJORN).replace("Бьорн", "Бьoрн"), actor_id=GM
        )
    with pytest.raises(NameTooLong) as error:  # a fighter's name is at most 64 characters
        await duels.save_fighter(
            game.id, format_sheet(BJORN).replace("Бьорн", "Я" * 65), actor_id=GM
        )
    assert error.value.params == {"max": 64}
    with pytest.raises(NameEmpty):
        await services.create_game(
            chat_id=CHAT + 3, topic_id=None, system="duel", name="\u200b\u2060", creator_id=GM
        )
    with pytest.raises(NameTooLong):
        await services.create_game(
            chat_id=CHAT + 3, topic_id=None, system="duel", name="Я" * 256, creator_id=GM
        )
