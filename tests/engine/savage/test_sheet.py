"""Characters: the text block, JSON, templates and groups of Extras."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import sheet_numbers
from engine.savage import (
    Character,
    Die,
    RuleError,
    character_from_json,
    character_to_json,
    format_sheet,
    instantiate,
    parse_sheet,
)

ICHIGO = (
    "Ичиго (Дикий) Ловкость d8, Смекалка d6, Дух d8, Сила d10, Выносливость d8; "
    "Драка d10, Атлетика d8, Стрельба d6; Защита 7, Стойкость 8 (2), Шаг 6; Бенни 3; "
    "Черты: Хладнокровие, Быстрый"
)


def test_the_documented_example() -> None:
    c = parse_sheet(ICHIGO, owner=42).character
    assert c.name == "Ичиго" and c.wild and c.owner == 42
    assert c.die("agility") == Die(8) and c.die("strength") == Die(10)
    assert c.die("fighting") == Die(10) and c.die("shooting") == Die(6)
    assert (c.parry, c.toughness, c.armor, c.pace, c.bennies) == (7, 8, 2, 6, 3)
    assert c.edges == ("level_headed", "quick")


def test_english_keywords_and_d12_bonus() -> None:
    c = parse_sheet(
        "Kenpachi (Wild): Agility d8, Strength d12+2, Vigor d12; Fighting d12+1; "
        "Toughness 10; Edges: Hardy, Level Headed"
    ).character
    assert c.die("strength") == Die(12, 2) and c.die("fighting") == Die(12, 1)
    assert c.toughness == 10 and c.edges == ("hardy", "level_headed")
    assert c.bennies == 2  # DESIGN.md: Wild Card NPCs have 2 bennies


def test_defaults_derive_parry_and_toughness() -> None:
    c = parse_sheet("Пустой Ловкость d6, Выносливость d8; Драка d8").character
    assert not c.wild and c.bennies == 0
    assert c.parry == 2 + 4 and c.toughness == 2 + 4 and c.pace == 6
    assert c.die("smarts") == Die(4)  # attributes start at d4
    assert c.die("notice") is None


def test_group_template_and_instances() -> None:
    spec = parse_sheet("Пустой (Статист, ×6) Драка d6; Стойкость 7; Черты: Стойкий")
    assert spec.count == 6 and spec.character.hardy
    members = instantiate(spec.character, spec.count, "hollow")
    assert [m.id for m in members] == [f"hollow-{i}" for i in range(1, 7)]
    assert members[2].name == "Пустой 3"
    assert all(m.status == spec.character.status for m in members)


def test_unknown_traits_are_kept_as_written() -> None:
    c = parse_sheet("Урахара (Дикий) Кидо d10, Зампакто d8; Черты: Гений").character
    assert c.die("spellcasting") == Die(10)
    assert c.die("зампакто") == Die(8)
    assert c.edges == ("Гений",)


@pytest.mark.parametrize(
    ("text", "code", "fragment"),
    [
        ("", "sheet_empty", None),
        ("(Дикий) Драка d6", "sheet_no_name", None),
        ("Пустой: Ловкость d7", "sheet_bad_die", "Ловкость d7"),
        ("Пустой: Драка d10+1", "sheet_bad_die", "Драка d10+1"),
        ("Пустой: Драка d6, Рост 180", "sheet_unknown_part", "Рост 180"),
        ("Пустой: Драка d6; Защита семь", "sheet_unknown_part", "Защита семь"),
        ("Пустой: Драка d6, Драка d8", "sheet_duplicate", "Драка d8"),
        ("Пустой (Статист, Великан) Драка d6", "sheet_unknown_part", "Великан"),
        ("Пустой (×99) Драка d6", "bad_group_size", None),
    ],
)
def test_errors_point_at_the_bad_part(text: str, code: str, fragment: str | None) -> None:
    with pytest.raises(RuleError) as err:
        parse_sheet(text)
    assert err.value.code == code
    if fragment is not None:
        assert err.value.params["fragment"] == fragment
        assert text[err.value.params["position"] :].startswith(fragment)


def test_format_reads_back() -> None:
    spec = parse_sheet(ICHIGO, owner=7)
    text = format_sheet(spec.character)
    assert text.startswith("Ичиго (Дикий, игрок 7) Ловкость d8")
    assert parse_sheet(text) == spec


def test_json_round_trip() -> None:
    c = parse_sheet(ICHIGO).character
    text = character_to_json(c)
    assert json.loads(text)["attributes"][0] == ["agility", "d8"]
    assert character_from_json(text) == c
    assert Character.from_dict(c.to_dict()) == c


def test_bad_json() -> None:
    with pytest.raises(RuleError) as err:
        character_from_json('{"name": "x"}')
    assert err.value.code == "sheet_bad_json"
    with pytest.raises(RuleError) as err:
        character_from_json('{"id": "x", "name": "x", "attributes": [["vigor", "d7"]]}')
    assert err.value.code == "sheet_bad_die"


def test_every_error_code_is_raised_somewhere() -> None:
    from pathlib import Path

    from engine.savage import ERROR_CODES

    root = Path(__file__).resolve().parents[3] / "engine" / "savage"
    source = "".join(
        p.read_text(encoding="utf-8") for p in root.glob("*.py") if p.name != "errors.py"
    )
    # the bound every sheet shares is raised by its code's name (engine/sheet_numbers.py)
    shared = {sheet_numbers.CODE} if "sheet_numbers.CODE" in source else set()
    unused = [code for code in ERROR_CODES if f'"{code}"' not in source and code not in shared]
    assert unused == []
    with pytest.raises(KeyError):
        RuleError("no_such_code")


_DICE = st.sampled_from([Die(4), Die(6), Die(8), Die(10), Die(12), Die(12, 1), Die(12, 3)])
_SKILLS = ("fighting", "shooting", "athletics", "notice", "taunt", "spellcasting", "healing")
_EDGES = ("level_headed", "improved_level_headed", "quick", "hesitant", "hardy", "Гений")


@st.composite
def characters(draw: st.DrawFn) -> Character:
    from engine.savage.traits import ATTRIBUTES

    skills = draw(st.lists(st.sampled_from(_SKILLS), unique=True, max_size=5))
    toughness = draw(st.integers(2, 20))
    return Character(
        id="",
        name=draw(st.sampled_from(["Ичиго", "Рукия Кучики", "Hollow", "Гриммджо Джагерджак"])),
        wild=draw(st.booleans()),
        owner=draw(st.one_of(st.none(), st.integers(1, 10**10))),
        attributes=tuple((a, draw(_DICE)) for a in ATTRIBUTES),
        skills=tuple((s, draw(_DICE)) for s in skills),
        parry=draw(st.integers(2, 15)),
        toughness=toughness,
        armor=draw(st.integers(0, toughness)),
        pace=draw(st.integers(1, 12)),
        bennies=draw(st.integers(0, 6)),
        edges=tuple(draw(st.lists(st.sampled_from(_EDGES), unique=True, max_size=3))),
    )


@given(characters(), st.integers(1, 20))
def test_format_and_parse_are_inverse(character: Character, count: int) -> None:
    spec = parse_sheet(format_sheet(character, count))
    assert spec.character == character
    assert spec.count == count
