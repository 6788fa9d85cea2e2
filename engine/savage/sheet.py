"""The compact text block for a character (documented in docs/rules/savage.md).

    Ичиго (Дикий) Ловкость d8, Смекалка d6, Дух d8, Сила d10, Выносливость d8;
    Драка d10, Атлетика d8, Стрельба d6; Защита 7, Стойкость 8 (2), Шаг 6; Бенни 3;
    Черты: Хладнокровие, Быстрый

Header: the name, then optional tags in parentheses: «Дикий»/«Дикая»/«Wild», «Статист»/
«Extra», «×6» (a template for a group of six Extras). Then items separated by «,», «;» or new
lines: «<attribute or skill> <die>», «Защита N», «Стойкость N (броня)», «Шаг N», «Бенни N»,
and a list section «Черты: a, b» (also «Изъяны:», «Edges:», «Hindrances:») that runs to the
next «;» or line end. Every error names the offending fragment and its position.

Names are read with the synonyms of `sheet_names` («Характер» is Дух, «Быстрота» is Quick).
A trait or edge the tables do not know is kept (a skill of its own, an edge as written) and
named in a warning (`SheetSpec.warnings`): never dropped without a word. «игрок N» is a
player's id, «игрок Имя» a player's name the services resolve (`SheetSpec.owner_name`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from typing import Any

from engine import sheet_numbers
from engine.describe import Description

from . import sheet_names
from .character import EDGE_NAMES, Character
from .errors import RuleError
from .sheet_names import ATTRIBUTE_SYNONYMS, EDGE_SYNONYMS, EXPORT_NAMES, SKILL_SYNONYMS
from .traits import ATTRIBUTE_NAMES, ATTRIBUTES, SKILL_NAMES, Die, parse_die

MAX_GROUP = 50

_STATS: dict[str, str] = {
    "защита": "parry",
    "парирование": "parry",
    "parry": "parry",
    "стойкость": "toughness",
    "прочность": "toughness",
    "toughness": "toughness",
    "шаг": "pace",
    "темп": "pace",
    "pace": "pace",
    "бенни": "bennies",
    "фишки": "bennies",
    "bennies": "bennies",
    "benny": "bennies",
}
_LIST_SECTIONS = ("черты", "изъяны", "недостатки", "способности", "edges", "hindrances")
_WILD_TAGS = {"дикий", "дикая", "wild", "wild card", "wc"}
_EXTRA_TAGS = {"статист", "статистка", "extra"}
_COUNT_RE = re.compile(r"^[×xх*]\s*(\d+)$", re.IGNORECASE)
_OWNER_RE = re.compile(r"^(?:игрок|игрока|владелец|player|owner)\s+(.+)$", re.IGNORECASE)
_ITEM_RE = re.compile(
    r"^(?P<name>[^\d()]+?)\s+(?P<value>[dдк]\d+(?:\s*\+\s*\d+)?|\d+)"
    r"\s*(?:\(\s*(?P<extra>[^)]*)\))?$",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class SheetSpec:
    """A parsed block: the character and how many copies it stands for (a group of Extras
    when ``count`` > 1)."""

    character: Character
    count: int = 1
    warnings: tuple[Description, ...] = ()  # what was kept though no table knows it
    owner_name: str | None = None  # «игрок Имя»: the services find the player


_ATTRIBUTES = {sheet_names.key(k): v for k, v in {**ATTRIBUTE_NAMES, **ATTRIBUTE_SYNONYMS}.items()}
_SKILLS = {sheet_names.key(k): v for k, v in {**SKILL_NAMES, **SKILL_SYNONYMS}.items()}
_EDGES = {sheet_names.key(k): v for k, v in {**EDGE_NAMES, **EDGE_SYNONYMS}.items()}
_FLAVOUR = frozenset(sheet_names.key(k) for k in sheet_names.KNOWN_FLAVOUR)
_OWN_SKILLS = frozenset(sheet_names.key(k) for k in sheet_names.KNOWN_SKILLS)


def _warning(code: str, name: str) -> Description:
    return Description(f"rule.{code}", {"name": name.strip()})


def _trait(label: str) -> tuple[str, bool, Description | None]:
    """A trait's code, whether it is an attribute, and the warning when no table knows it
    (then it is a skill of its own, named as written)."""
    k = sheet_names.key(label)
    if k in _ATTRIBUTES:
        return _ATTRIBUTES[k], True, None
    if k in _SKILLS:
        return _SKILLS[k], False, None
    warning = None if k in _OWN_SKILLS else _warning("sheet_unknown_trait", label)
    return k.replace(" ", "_"), False, warning


def _edge(name: str) -> tuple[str, Description | None]:
    k = sheet_names.key(name)
    if k in _EDGES:
        return _EDGES[k], None
    warning = None if k in _FLAVOUR else _warning("sheet_unknown_edge", name)
    return name.strip(), warning


def _fail(code: str, fragment: str, position: int) -> RuleError:
    return RuleError(code, {"fragment": fragment.strip()[:40], "position": position})


def _number(digits: str, item: str, position: int) -> int:
    """A number of the block within the bound every sheet shares (engine/sheet_numbers.py)."""
    value = sheet_numbers.read(digits)
    if value is None:
        params = {"fragment": item.strip()[:40], "position": position}
        raise RuleError(sheet_numbers.CODE, sheet_numbers.params(digits) | params)
    return value


def check_numbers(character: Character) -> Character:
    """Every number of the sheet within the bound every sheet shares (the owner's Telegram
    id and the state of a fight are no numbers of the sheet)."""
    found = sheet_numbers.first_too_large(character, skip=("owner", "status"))
    if found is not None:
        path, value = found
        raise RuleError(sheet_numbers.CODE, sheet_numbers.params(value) | {"field": path})
    return character


def parse_sheet(text: str, *, owner: int | None = None) -> SheetSpec:
    if not text or not text.strip():
        raise RuleError("sheet_empty")
    name, tags, rest, rest_at = _split_header(text)
    wild, count, owner, owner_name = _read_tags(tags, owner)
    warnings: list[Description] = []
    attrs: dict[str, Die] = {}
    skills: dict[str, Die] = {}
    stats: dict[str, int] = {}
    armor = 0
    edges: list[str] = []
    for section, at in _pieces(rest, rest_at, ";\n"):
        head, colon, tail = section.partition(":")
        if colon and head.strip().lower() in _LIST_SECTIONS:
            offset = at + len(head) + 1
            for piece, _ in _pieces(tail, offset, ","):
                if piece.strip():
                    code, warning = _edge(piece)
                    edges.append(code)
                    warnings += [warning] if warning else []
            continue
        for item, item_at in _pieces(section, at, ","):
            if not item.strip():
                continue
            armor_here, warning = _read_item(item, item_at, attrs, skills, stats)
            armor = armor if armor_here is None else armor_here
            warnings += [warning] if warning else []

    attributes = tuple((a, attrs.get(a, Die(4))) for a in ATTRIBUTES)
    fighting = skills.get("fighting")
    vigor = attrs.get("vigor", Die(4))
    parry = stats.get("parry", 2 + (fighting.half if fighting else 0))
    toughness = stats.get("toughness", 2 + vigor.half + armor)
    if armor > toughness:
        raise _fail("sheet_bad_number", f"({armor})", rest_at)
    player = owner is not None or owner_name is not None
    default_bennies = (3 if player else 2) if wild else 0
    character = Character(
        id="",
        name=name,
        wild=wild,
        owner=owner,
        attributes=attributes,
        skills=tuple(skills.items()),
        parry=parry,
        toughness=toughness,
        armor=armor,
        pace=stats.get("pace", 6),
        bennies=stats.get("bennies", default_bennies),
        edges=tuple(dict.fromkeys(edges)),
    )
    return SheetSpec(check_numbers(character), count, tuple(warnings), owner_name)


def _read_tags(
    tags: list[tuple[str, int]], owner: int | None
) -> tuple[bool, int, int | None, str | None]:
    """The header's tags: wild or not, the group's size, and the owner (an id or a name)."""
    wild, count = False, 1
    owner_name: str | None = None
    for tag, at in tags:
        low = tag.lower()
        if low in _WILD_TAGS:
            wild = True
        elif low in _EXTRA_TAGS:
            wild = False
        elif m := _COUNT_RE.match(tag):
            count = int(m.group(1))
            if not 1 <= count <= MAX_GROUP:
                raise RuleError("bad_group_size", {"max": MAX_GROUP})
        elif m := _OWNER_RE.match(tag):
            who = m.group(1).strip()
            if who.isdigit():
                owner = int(who)
            else:
                owner_name = who
        else:
            raise _fail("sheet_unknown_part", tag, at)
    return wild, count, owner, owner_name


def _read_item(
    item: str,
    item_at: int,
    attrs: dict[str, Die],
    skills: dict[str, Die],
    stats: dict[str, int],
) -> tuple[int | None, Description | None]:
    """One «name value» item into `attrs`, `skills` or `stats`; the armor it gives
    («Стойкость 7 (2)»), and the warning for a trait no table knows."""
    m = _ITEM_RE.match(item.strip())
    if not m:
        raise _fail("sheet_unknown_part", item, item_at)
    label, value, extra = m.group("name"), m.group("value"), m.group("extra")
    key = " ".join(label.lower().split())
    if value[0].isdigit():
        if key not in _STATS:
            raise _fail("sheet_unknown_part", item, item_at)
        stat = _STATS[key]
        if stat in stats:
            raise _fail("sheet_duplicate", item, item_at)
        stats[stat] = _number(value, item, item_at)
        if extra is None:
            return None, None
        if stat != "toughness" or not extra.strip().isdigit():
            raise _fail("sheet_bad_number", item, item_at)
        return _number(extra, item, item_at), None
    if extra is not None:
        raise _fail("sheet_unknown_part", item, item_at)
    bonus = value.partition("+")[2]
    if bonus:
        _number(bonus, item, item_at)  # d12+N: N within the bound before it is read
    try:
        die = parse_die(value)
    except RuleError:
        raise _fail("sheet_bad_die", item, item_at) from None
    code, attribute, warning = _trait(label)
    target = attrs if attribute else skills
    if code in target:
        raise _fail("sheet_duplicate", item, item_at)
    target[code] = die
    return None, warning


def with_owner(spec: SheetSpec, members: list[tuple[int, str, str | None]]) -> SheetSpec:
    """The spec with «игрок Имя» resolved among the game's ``members`` (id, first name,
    username): by the first name or @username, case- and «ё»-insensitively; none or two
    such players is `sheet_unknown_owner`."""
    if spec.owner_name is None:
        return spec
    wanted = sheet_names.key(spec.owner_name)
    found = {
        user_id
        for user_id, first_name, username in members
        if wanted in (sheet_names.key(first_name), "@" + sheet_names.key(username or ""))
    }
    if len(found) != 1:
        raise RuleError("sheet_unknown_owner", {"name": spec.owner_name})
    character = replace(spec.character, owner=found.pop())
    return replace(spec, character=character, owner_name=None)


def _split_header(text: str) -> tuple[str, list[tuple[str, int]], str, int]:
    """Name, parenthesised tags (with positions) and the rest of the text."""
    m = re.match(r"\s*([^(:;\n]+?)\s*(?:\(([^)]*)\)|:|\n|;|$)", text)
    name = m.group(1).strip() if m else ""
    if not m or not name or _looks_like_item(name):
        # no separator after the name: cut before the first "<word> d<N>" item
        first = re.search(r"[^\s,;]+\s+[dдк]\d", text, re.IGNORECASE)
        name = text[: first.start()].strip() if first else ""
        if first is None or not name or "(" in name:
            raise RuleError("sheet_no_name", {"fragment": text.strip()[:40], "position": 0})
        return name, [], text[first.start() :], first.start()
    tags: list[tuple[str, int]] = []
    if m.group(2) is not None:
        tags = [(t.strip(), pos) for t, pos in _pieces(m.group(2), m.start(2), ",") if t.strip()]
    return name, tags, text[m.end() :], m.end()


def _looks_like_item(name: str) -> bool:
    return bool(re.search(r"\s[dдк]\d", name, re.IGNORECASE))


def _pieces(text: str, base: int, separators: str) -> list[tuple[str, int]]:
    """Split on any of ``separators`` keeping each piece's absolute position."""
    out: list[tuple[str, int]] = []
    start = 0
    for i, ch in enumerate(text + separators[0]):
        if ch in separators:
            piece = text[start:i]
            lead = len(piece) - len(piece.lstrip())
            out.append((piece.lstrip(), base + start + lead))
            start = i + 1
    return out


def _russian_names() -> dict[str, str]:
    """Code -> the Russian spelling a sheet is written with: the chat's (`EXPORT_NAMES`),
    else the first Russian name of the tables."""
    out = dict(EXPORT_NAMES)
    for table in (ATTRIBUTE_NAMES, SKILL_NAMES, EDGE_NAMES, SKILL_SYNONYMS, EDGE_SYNONYMS):
        for text, code in table.items():
            if not text.isascii():
                out.setdefault(code, text[:1].upper() + text[1:])
    return out


_RU = _russian_names()


def format_sheet(character: Character, count: int = 1, *, owner_name: str | None = None) -> str:
    """The Russian text block for a character (``parse_sheet`` reads it back); the owner as
    «игрок <owner_name>» when the name is given (a name the tag can hold), else by id."""
    tags = ["Дикий" if character.wild else "Статист"]
    if count > 1:
        tags.append(f"×{count}")
    if character.owner is not None:
        readable = owner_name is not None and _fits_tag(owner_name)
        tags.append(f"игрок {owner_name if readable else character.owner}")
    attrs = ", ".join(f"{_RU[a]} {d}" for a, d in character.attributes)
    parts = [f"{character.name} ({', '.join(tags)}) {attrs}"]
    if character.skills:
        parts.append(
            ", ".join(
                f"{_RU.get(s, s.replace('_', ' ').capitalize())} {d}" for s, d in character.skills
            )
        )
    armor = f" ({character.armor})" if character.armor else ""
    parts.append(
        f"Защита {character.parry}, Стойкость {character.toughness}{armor}, Шаг {character.pace}"
    )
    parts.append(f"Бенни {character.bennies}")
    if character.edges:
        parts.append("Черты: " + ", ".join(_RU.get(e, e) for e in character.edges))
    return "; ".join(parts)


def _fits_tag(name: str) -> bool:
    """A name «игрок …» can carry: no separator of the header, not all digits."""
    name = name.strip()
    return bool(name) and not name.isdigit() and not any(ch in name for ch in "(),;:\n")


def character_to_json(character: Character) -> str:
    return json.dumps(character.to_dict(), ensure_ascii=False)


def character_from_json(text: str | dict[str, Any]) -> Character:
    try:
        data = json.loads(text) if isinstance(text, str) else text
        return check_numbers(Character.from_dict(data))
    except RuleError:
        raise
    except (ValueError, KeyError, TypeError) as exc:
        raise RuleError("sheet_bad_json", {"detail": str(exc)[:80]}) from None


def instantiate(
    template: Character, count: int, base_id: str, *, first: int = 1
) -> tuple[Character, ...]:
    """N members of a group of Extras from a template: own ids, names and fresh state. The
    names are numbered from ``first`` (a second group of the same Extras goes on counting:
    «Пустой 3», «Пустой 4»)."""
    if not 1 <= count <= MAX_GROUP:
        raise RuleError("bad_group_size", {"max": MAX_GROUP})
    if count == 1 and first == 1:
        return (replace(template, id=base_id),)
    return tuple(
        replace(template, id=f"{base_id}-{i}", name=f"{template.name} {n}")
        for i, n in enumerate(range(first, first + count), start=1)
    )
