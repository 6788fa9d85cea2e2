"""The Russian text block of a character, its formatter and JSON (documented in
docs/rules/storyteller.md). One «Ключ: значение» per line:

    Имя: Вероника Штерн
    Атрибуты: Сила 2, Ловкость 3, Выносливость 2, Обаяние 3, Манипулирование 2, Внешность 2, …
    Способности: Атлетизм 2, Рукопашный бой 2, Фехтование 2, Огнестрельное оружие 3, Уворот 2
    Специализации: Огнестрельное оружие (пистолеты), Фехтование (ножи)
    Сила воли: 5/4
    Здоровье: поверхностные 1
    Броня: Кевларовый жилет 3, штраф 1
    Оружие: Нож (Сила+1, летальные, сложность 4, Фехтование); Пистолет
    Поглощает летальные: нет

A weapon or an armor written by its name alone is taken from the game's table (options.py).
Missing attributes are 1; an ability the seed does not name is the GM's own. A line or a
name that cannot be placed is a warning naming it, never a silent loss.
"""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass
from typing import Any

from engine import codec, describe, sheet_numbers
from engine.describe import Description
from engine.words import fold

from .character import Character
from .errors import StorytellerError
from .options import AGGRAVATED, BASHING, DEFAULT_OPTIONS, LETHAL, Armor, Options, Weapon
from .traits import ABILITIES, ATTRIBUTES, is_attribute, trait_code, trait_name

EXAMPLE = """\
Имя: Вероника Штерн
Атрибуты: Сила 2, Ловкость 3, Выносливость 2, Обаяние 3, Манипулирование 2, Внешность 2, \
Восприятие 3, Интеллект 2, Сообразительность 3
Способности: Атлетизм 2, Рукопашный бой 2, Фехтование 2, Огнестрельное оружие 3, Уворот 2, \
Бдительность 2, Маскировка 1
Специализации: Огнестрельное оружие (пистолеты)
Сила воли: 5
Броня: Кевларовый жилет
Оружие: Нож; Пистолет
Поглощает летальные: нет
"""

WARNINGS = "st_sheet"
describe.register(
    WARNINGS,
    {
        "unknown_line": "This line was not read: {line}",
        "unknown_attribute": "Not an attribute: {name}",
    },
)

_KEYS: dict[str, str] = {
    "имя": "name",
    "атрибуты": "attributes",
    "способности": "abilities",
    "навыки": "abilities",
    "специализации": "specialties",
    "специализация": "specialties",
    "сила воли": "willpower",
    "здоровье": "health",
    "раны": "health",
    "повреждения": "health",
    "броня": "armor",
    "оружие": "weapons",
    "поглощает летальные": "soaks_lethal",
    "сверхъестественный": "soaks_lethal",
}
_TYPE_PREFIXES = (("поверхн", BASHING), ("летал", LETHAL), ("усилив", AGGRAVATED))
_TYPE_WORDS = {BASHING: "поверхностные", LETHAL: "летальные", AGGRAVATED: "усиливающиеся"}
_YES = {"да", "yes", "+", "есть"}
_NO = {"нет", "no", "-", "—"}
_RATING_RE = re.compile(r"^(?P<name>.+?)\s+(?P<value>\d+)$")
_PAREN_RE = re.compile(r"\s*(?P<name>[^(;]+?)\s*\((?P<inside>[^)]*)\)\s*[,;]?")
_DAMAGE_RE = re.compile(r"^(?:(?P<str>сила|str)\s*(?:\+\s*(?P<plus>\d+))?|(?P<num>\d+))$", re.I)
_DIFF_RE = re.compile(r"^(?:сложность|сл\.?)\s*(?P<n>\d+)$", re.I)
_ARMOR_RE = re.compile(
    r"^(?P<name>.*?)\s*(?P<rating>\d+)\s*(?:,\s*штраф\s*[−-]?(?P<pen>\d+))?$", re.I
)
_WP_RE = re.compile(r"^(?P<perm>\d+)\s*(?:/\s*(?P<cur>\d+))?$")


@dataclass(frozen=True, slots=True)
class ParsedSheet:
    character: Character
    warnings: tuple[Description, ...]


def _fail(code: str, fragment: str) -> StorytellerError:
    return StorytellerError(code, {"fragment": fragment[:40]})


def _bounded(digits: str, fragment: str) -> int:
    """A number within the bound every sheet shares (engine/sheet_numbers.py)."""
    value = sheet_numbers.read(digits)
    if value is None:
        params = sheet_numbers.params(digits) | {"fragment": fragment[:40]}
        raise StorytellerError(sheet_numbers.CODE, params)
    return value


def check_numbers(character: Character) -> Character:
    """Every number of the sheet within the bound every sheet shares."""
    found = sheet_numbers.first_too_large(character)
    if found is not None:
        path, value = found
        params = sheet_numbers.params(value) | {"field": path}
        raise StorytellerError(sheet_numbers.CODE, params)
    return character


def _number(text: str) -> int:
    if not text.strip().isdigit() or int(text) > 10:
        raise _fail("sheet_bad_number", text)
    return int(text)


def _ratings(text: str) -> list[tuple[str, int, str]]:
    """«Сила 2, Ловкость 3» as (code, value, the name as written)."""
    out = []
    for piece in (p.strip() for p in re.split(r"[,;]", text)):
        if not piece:
            continue
        m = _RATING_RE.match(piece)
        if not m:
            raise _fail("sheet_bad_number", piece)
        out.append((trait_code(m["name"]), _number(m["value"]), m["name"].strip()))
    return out


def _damage_type(word: str) -> str | None:
    w = word.strip().lower()
    return next((t for prefix, t in _TYPE_PREFIXES if w.startswith(prefix)), None)


def _weapon(name: str, inside: str | None, options: Options) -> Weapon:
    if inside is None:
        found = options.weapon(name)
        if found is None:
            raise _fail("sheet_bad_weapon", name)
        return found
    parts = [p.strip() for p in inside.split(",") if p.strip()]
    damage, strength, dtype, diff, ability = None, False, BASHING, 6, None
    for part in parts:
        if (m := _DAMAGE_RE.match(part)) and damage is None:
            strength = m["str"] is not None
            damage = _bounded(m["plus"] or "0", part) if strength else _bounded(m["num"], part)
        elif (t := _damage_type(part)) is not None:
            dtype = t
        elif m := _DIFF_RE.match(part):
            diff = int(m["n"])
            if not 2 <= diff <= 10:
                raise _fail("sheet_bad_weapon", part)
        elif (code := trait_code(part)) in ("brawl", "melee", "firearms", "athletics"):
            ability = code
        else:
            raise _fail("sheet_bad_weapon", part)
    if damage is None:
        raise _fail("sheet_bad_weapon", inside)
    if ability is None:
        ability = "melee" if strength else "firearms"
    return Weapon(name.strip(), damage, dtype, diff, ability, strength)


def _weapons(text: str, options: Options) -> tuple[Weapon, ...]:
    out: list[Weapon] = []
    rest = text
    while rest.strip():
        m = _PAREN_RE.match(rest)
        if m:
            out.append(_weapon(m["name"], m["inside"], options))
            rest = rest[m.end() :]
            continue
        head, _, rest = rest.partition(";")
        if head.strip():
            out.append(_weapon(head.strip(), None, options))
    return tuple(out)


def _armor(text: str, options: Options) -> Armor | None:
    t = text.strip()
    if t.lower() in _NO:
        return None
    if (found := options.armor_named(t)) is not None:
        return found
    m = _ARMOR_RE.match(t)
    if not m:
        raise _fail("sheet_bad_armor", t)
    rating, penalty = _bounded(m["rating"], t), _bounded(m["pen"] or "0", t)
    return Armor(m["name"].strip() or "Броня", rating, penalty)


def _health(text: str, size: int) -> tuple[str, ...]:
    """The marks of «поверхностные 2, летальные 1»: at most the track's ``size`` levels."""
    marks: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if not piece or piece.lower() in _NO:
            continue
        m = _RATING_RE.match(piece)
        t = _damage_type(m["name"]) if m else None
        if not m or t is None:
            raise _fail("sheet_bad_health", piece)
        count = _bounded(m["value"], piece)
        if len(marks) + count > size:  # a track holds one mark per level
            raise _fail("sheet_bad_health", piece)
        marks.extend([t] * count)
    return tuple(marks)


def parse_sheet(text: str, options: Options = DEFAULT_OPTIONS) -> ParsedSheet:
    """The character of a text block and the warnings for what it did not read."""
    lines = [ln.strip() for ln in text.replace("\r", "").split("\n")]
    lines = [ln for ln in lines if ln]
    if not lines:
        raise StorytellerError("sheet_empty")
    fields: dict[str, Any] = {}
    attributes = dict.fromkeys(ATTRIBUTES, 1)
    abilities: dict[str, int] = {}
    specialties: dict[str, tuple[str, ...]] = {}
    warnings: list[Description] = []
    for line in lines:
        key, colon, value = line.partition(":")
        field = _KEYS.get(fold(key)) if colon else None
        if field is None:
            warnings.append(Description(f"{WARNINGS}.unknown_line", {"line": line[:60]}))
            continue
        value = value.strip()
        if field == "name":
            fields["name"] = value
        elif field in ("attributes", "abilities"):
            for code, n, written in _ratings(value):
                if is_attribute(code):
                    attributes[code] = n
                elif field == "attributes":
                    warnings.append(Description(f"{WARNINGS}.unknown_attribute", {"name": written}))
                else:
                    abilities[code] = n
        elif field == "specialties":
            for m in _PAREN_RE.finditer(value):
                names = tuple(s.strip() for s in m["inside"].split(",") if s.strip())
                specialties[trait_code(m["name"])] = names
            if _PAREN_RE.sub("", value).strip(" ,;"):  # a part not written «Способность (…)»
                warnings.append(Description(f"{WARNINGS}.unknown_line", {"line": line[:60]}))
        elif field == "willpower":
            wp = _WP_RE.match(value)
            if not wp:
                raise _fail("sheet_bad_number", value)
            fields["willpower"] = _number(wp["perm"])
            fields["willpower_points"] = _number(wp["cur"] or wp["perm"])
        elif field == "health":
            fields["health"] = _health(value, len(options.health))
        elif field == "armor":
            fields["armor"] = _armor(value, options)
        elif field == "weapons":
            fields["weapons"] = _weapons(value, options)
        elif field == "soaks_lethal":
            fields["soaks_lethal"] = value.lower() in _YES
    if not fields.get("name"):
        raise StorytellerError("sheet_no_name")
    character = Character(
        attributes=attributes, abilities=abilities, specialties=specialties, **fields
    )
    return ParsedSheet(check_numbers(character.with_marks(character.health)), tuple(warnings))


def _rating_list(values: dict[str, int]) -> str:
    return ", ".join(f"{trait_name(code)} {n}" for code, n in values.items())


def _format_weapon(w: Weapon) -> str:
    damage = (f"Сила+{w.damage}" if w.damage else "Сила") if w.strength else str(w.damage)
    ability = ABILITIES.get(w.ability, w.ability)
    return f"{w.name} ({damage}, {_TYPE_WORDS[w.damage_type]}, сложность {w.difficulty}, {ability})"


def format_sheet(c: Character) -> str:
    """The text block of ``c``; ``parse_sheet(format_sheet(c))`` gives ``c`` back."""
    lines = [f"Имя: {c.name}", f"Атрибуты: {_rating_list(c.attributes)}"]
    if c.abilities:
        lines.append(f"Способности: {_rating_list(c.abilities)}")
    if c.specialties:
        specs = ", ".join(f"{trait_name(k)} ({', '.join(v)})" for k, v in c.specialties.items())
        lines.append(f"Специализации: {specs}")
    wp = (
        f"{c.willpower}"
        if c.willpower == c.willpower_points
        else f"{c.willpower}/{c.willpower_points}"
    )
    lines.append(f"Сила воли: {wp}")
    if c.health:
        counts = [(t, c.health.count(t)) for t in (AGGRAVATED, LETHAL, BASHING)]
        lines.append("Здоровье: " + ", ".join(f"{_TYPE_WORDS[t]} {n}" for t, n in counts if n))
    if c.armor:
        lines.append(f"Броня: {c.armor.name} {c.armor.rating}, штраф {c.armor.dex_penalty}")
    if c.weapons:
        lines.append("Оружие: " + "; ".join(_format_weapon(w) for w in c.weapons))
    lines.append(f"Поглощает летальные: {'да' if c.soaks_lethal else 'нет'}")
    return "\n".join(lines) + "\n"


def instantiate(template: Character, count: int) -> tuple[Character, ...]:
    """An NPC template as ``count`` characters: «Бандит 1», «Бандит 2», … (one: as it is)."""
    if count == 1:
        return (template,)
    return tuple(
        dataclasses.replace(template, name=f"{template.name} {i}") for i in range(1, count + 1)
    )


def character_to_json(c: Character) -> str:
    return json.dumps(codec.to_data(c), ensure_ascii=False)


def character_from_json(text: str | dict[str, Any]) -> Character:
    try:
        data = json.loads(text) if isinstance(text, str) else text
        return codec.from_data(Character, data)
    except ValueError:
        raise StorytellerError("sheet_bad_json") from None


# --- the game's tables as text rows (the /options command and the Mini App's settings) ---


def parse_weapon_rows(text: str) -> tuple[Weapon, ...]:
    """Weapon rows written in full as on a sheet, one a line or «;»-separated:
    ``Имя (урон, тип, сложность N, способность)``; a refusal names a bad fragment."""
    rows = [line for line in text.replace(";", "\n").splitlines() if line.strip()]
    bare = Options(weapons=())  # a name alone is not a row of a table being written
    return tuple(w for line in rows for w in _weapons(line, bare))


def format_weapon_row(w: Weapon) -> str:
    return _format_weapon(w)


def parse_armor_rows(text: str) -> tuple[Armor, ...]:
    """Armor rows ``Имя N, штраф M``, one a line."""
    out: list[Armor] = []
    for line in text.splitlines():
        if line.strip():
            armor = _armor(line, Options(armor=()))
            if armor is None:
                raise _fail("sheet_bad_armor", line.strip())
            out.append(armor)
    return tuple(out)


def format_armor_row(a: Armor) -> str:
    return f"{a.name} {a.rating}, штраф {a.dex_penalty}"
