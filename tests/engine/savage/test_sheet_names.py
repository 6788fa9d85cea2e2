"""Sheets people paste (issue 12, item 7): the Russian editions' names of traits, edges as
nouns, a warning for what no table knows, «игрок Имя»."""

from __future__ import annotations

import pytest

from engine.savage import Die, RuleError, format_sheet, parse_sheet
from engine.savage.sheet import with_owner
from engine.savage.sheet_names import (
    ATTRIBUTE_SYNONYMS,
    EDGE_SYNONYMS,
    EXPORT_NAMES,
    SKILL_SYNONYMS,
)

EDITION = (
    "Ичиго (Дикий) Ловкость d8, Смекалка d6, Характер d8, Сила d10, Выносливость d8; "
    "Рукопашный бой d10, Наблюдательность d8, Азартные игры d4; Стойкость 8 (2); "
    "Черты: Быстрота, Нерешительность, Железные нервы, Гений"
)


def test_names_of_the_russian_editions() -> None:
    spec = parse_sheet(EDITION, owner=7)
    c = spec.character
    assert c.die("spirit") == Die(8)  # «Характер» is Дух
    assert c.die("fighting") == Die(10) and c.die("notice") == Die(8)
    assert c.die("gambling") == Die(4)
    assert c.edges == ("quick", "hesitant", "nerves_of_steel", "Гений")
    assert c.parry == 2 + 5  # Parry derived from the synonym's Fighting
    assert spec.warnings == ()


@pytest.mark.parametrize(
    "table", [ATTRIBUTE_SYNONYMS, SKILL_SYNONYMS, EDGE_SYNONYMS], ids=["attr", "skill", "edge"]
)
def test_every_synonym_reads_as_its_code(table: dict[str, str]) -> None:
    for name, code in table.items():
        if table is EDGE_SYNONYMS:
            spec = parse_sheet(f"Пробный Сила d6; Черты: {name.capitalize()}")
            assert spec.character.edges == (code,), name
        else:
            spec = parse_sheet(f"Пробный (Статист) {name.capitalize()} d8")
            c = spec.character
            got = dict(c.attributes) if table is ATTRIBUTE_SYNONYMS else dict(c.skills)
            assert got[code] == Die(8), name
        assert spec.warnings == (), name


def test_an_unknown_trait_and_edge_are_kept_and_named() -> None:
    spec = parse_sheet("Рукия (Дикая) Дух d8, Харизма d6, Кулинария d8; Черты: Ледяной взор")
    c = spec.character
    assert dict(c.skills) == {"харизма": Die(6), "кулинария": Die(8)}
    assert c.edges == ("Ледяной взор",)
    assert [(w.code, w.params["name"]) for w in spec.warnings] == [
        ("rule.sheet_unknown_trait", "Харизма"),
        ("rule.sheet_unknown_trait", "Кулинария"),
        ("rule.sheet_unknown_edge", "Ледяной взор"),
    ]


def test_export_writes_the_chats_names_and_reads_back() -> None:
    spec = parse_sheet(EDITION, owner=7)
    text = format_sheet(spec.character)
    assert "Дух d8" in text and "Драка d10" in text and "Внимание d8" in text
    assert "Черты: Быстрота, Нерешительность, Стальные нервы, Гений" in text
    assert parse_sheet(text).character == spec.character
    assert EXPORT_NAMES["quick"] == "Быстрота"


def test_player_by_name_in_the_sheet_and_back() -> None:
    members = [(1001, "Алиса", "alice"), (1002, "Борис", None), (1003, "Вера", "vera")]
    spec = parse_sheet("Ичиго (Дикий, игрок борис) Дух d8")
    assert spec.owner_name == "борис" and spec.character.owner is None
    assert spec.character.bennies == 3  # a player's Wild Card
    owned = with_owner(spec, members).character
    assert owned.owner == 1002
    assert with_owner(parse_sheet("Ичиго (игрок @Vera) Дух d8"), members).character.owner == 1003
    text = format_sheet(owned, owner_name="Борис")
    assert text.startswith("Ичиго (Дикий, игрок Борис) ") and "1002" not in text
    assert with_owner(parse_sheet(text), members).character == owned
    # a name the header cannot carry falls back to the id
    assert "игрок 1002" in format_sheet(owned, owner_name="Борис (ГМ)")


@pytest.mark.parametrize("members", [[], [(1, "Борис", None), (2, "борис", None)]])
def test_an_unknown_or_ambiguous_player_name_is_refused(
    members: list[tuple[int, str, str | None]],
) -> None:
    with pytest.raises(RuleError) as error:
        with_owner(parse_sheet("Ичиго (игрок Борис) Дух d8"), members)
    assert error.value.code == "sheet_unknown_owner"
    assert error.value.params == {"name": "Борис"}


def test_skills_no_rule_uses_keep_their_russian_name_without_a_warning() -> None:
    spec = parse_sheet("Урахара (Дикий) Смекалка d10; Чудонаука d10, Академические знания d8")
    assert dict(spec.character.skills) == {"чудонаука": Die(10), "академические_знания": Die(8)}
    assert spec.warnings == ()
    assert "Чудонаука d10, Академические знания d8" in format_sheet(spec.character)
