"""The character sheet: the seed's attributes and abilities, the text block and JSON."""

from __future__ import annotations

import dataclasses

import pytest

from engine.storyteller.character import FIST, Character
from engine.storyteller.errors import StorytellerError
from engine.storyteller.options import DEFAULT_OPTIONS, Armor, Weapon
from engine.storyteller.sheet import (
    EXAMPLE,
    character_from_json,
    character_to_json,
    format_sheet,
    instantiate,
    parse_sheet,
)
from engine.storyteller.traits import ABILITIES, ATTRIBUTES, trait_code


def test_the_example_pastes_as_is() -> None:
    parsed = parse_sheet(EXAMPLE)
    c = parsed.character
    assert parsed.warnings == ()
    assert c.name == "Вероника Штерн"
    assert c.attributes["dexterity"] == 3 and c.attributes["wits"] == 3
    assert c.abilities["firearms"] == 3 and c.abilities["stealth"] == 1
    assert c.specialties == {"firearms": ("пистолеты",)}
    assert (c.willpower, c.willpower_points) == (5, 5)
    # a name alone takes the row of the game's table
    assert c.armor == DEFAULT_OPTIONS.armor_named("Кевларовый жилет")
    assert [w.name for w in c.weapons] == ["Нож", "Пистолет"]
    assert c.soaks_lethal is False


def test_nine_attributes_and_the_seeds_abilities() -> None:
    # «Сила, Ловкость и Выносливость» ... «Обаяние, Манипулирование и Внешность» ...
    # «Восприятие, Интеллект и Сообразительность»
    assert len(ATTRIBUTES) == 9
    for name in ("Атлетизм", "Рукопашный бой", "Уворот", "Знание компьютера", "Выживание"):
        assert trait_code(name) in ABILITIES
    # the seed writes «Атлетика» too
    assert trait_code("атлетика") == "athletics"


def test_a_gm_may_add_an_ability_and_unknown_lines_are_warnings() -> None:
    text = "Имя: Ян\nСпособности: Хиромантия 2\nЛюбимый цвет: синий\nАтрибуты: Удача 3"
    parsed = parse_sheet(text)
    assert parsed.character.abilities == {"хиромантия": 2}
    codes = [(w.code, dict(w.params)) for w in parsed.warnings]
    assert codes == [
        ("st_sheet.unknown_line", {"line": "Любимый цвет: синий"}),
        ("st_sheet.unknown_attribute", {"name": "Удача"}),
    ]


def test_weapons_armor_health_and_willpower_written_out() -> None:
    text = (
        "Имя: Клык\nСила воли: 6/2\nЗдоровье: поверхностные 2, летальные 1\n"
        "Броня: Куртка 2, штраф 1\n"
        "Оружие: Когти (Сила+1, усиливающиеся, сложность 5, рукопашный бой); "
        "Обрез (6, летальные, сл 7, огнестрельное оружие)\nПоглощает летальные: да"
    )
    c = parse_sheet(text).character
    assert (c.willpower, c.willpower_points) == (6, 2)
    assert c.health == ("lethal", "bashing", "bashing")  # worst first
    assert c.armor == Armor("Куртка", 2, 1)
    assert c.weapons == (
        Weapon("Когти", 1, "aggravated", 5, "brawl", strength=True),
        Weapon("Обрез", 6, "lethal", 7, "firearms"),
    )
    assert c.soaks_lethal and c.weapons[1].ranged and not c.weapons[0].ranged


def test_format_and_parse_round_trip() -> None:
    c = parse_sheet(EXAMPLE).character
    c = dataclasses.replace(c, health=("lethal", "bashing"), willpower_points=3)
    again = parse_sheet(format_sheet(c))
    assert again.warnings == ()
    assert again.character == c


def test_json_round_trip() -> None:
    c = parse_sheet(EXAMPLE).character
    assert character_from_json(character_to_json(c)) == c
    with pytest.raises(StorytellerError) as err:
        character_from_json('{"attributes": 3}')
    assert err.value.code == "sheet_bad_json"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "sheet_empty"),
        ("Атрибуты: Сила 2", "sheet_no_name"),
        ("Имя: А\nАтрибуты: Сила 12", "sheet_bad_number"),
        ("Имя: А\nОружие: Бластер", "sheet_bad_weapon"),
        ("Имя: А\nБроня: толстая", "sheet_bad_armor"),
        ("Имя: А\nЗдоровье: синяки 2", "sheet_bad_health"),
    ],
)
def test_refusals_name_the_fragment(text: str, code: str) -> None:
    with pytest.raises(StorytellerError) as err:
        parse_sheet(text)
    assert err.value.code == code


def test_the_fist_is_always_at_hand_and_missing_attributes_are_one() -> None:
    c = Character("Безоружный")
    assert c.weapon(None) == FIST and c.rating("strength") == 1 and c.rating("brawl") == 0
    assert c.damage_pool(FIST) == 1


def test_an_npc_template_makes_numbered_copies() -> None:
    thug = parse_sheet("Имя: Бандит\nОружие: Нож").character
    assert [c.name for c in instantiate(thug, 3)] == ["Бандит 1", "Бандит 2", "Бандит 3"]
    assert instantiate(thug, 1) == (thug,)
    assert all(c.weapons == thug.weapons for c in instantiate(thug, 2))


def test_a_specialty_not_in_parentheses_is_a_warning() -> None:
    parsed = parse_sheet("Имя: Ян\nСпециализации: Фехтование (ножи), Уворот — в толпе")
    assert parsed.character.specialties == {"melee": ("ножи",)}
    assert [w.code for w in parsed.warnings] == ["st_sheet.unknown_line"]
