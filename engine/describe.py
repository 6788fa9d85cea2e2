"""Descriptions: what an event or a refusal says, as a stable ``code`` and JSON-safe
``params`` — never a sentence. Every code has one English template here (the msgid of the
gettext domain ``engine``, locales/<locale>/LC_MESSAGES/engine.po); the chat and the Mini App
translate the template and fill the params, each in its own markup.

Tables are registered by family (``register("rule", {...})``): the code of an entry is
``"<family>.<key>"``. A template is a ``str.format`` string, or a pair (singular, plural)
chosen by the integer param ``count`` (gettext plural forms).

A family declares the params a surface renders its own way (``kinds("race", position=CARD)``):
``NAME`` is an id the surface resolves to a name (quoted its way); ``CARD`` a card of a row
counted from 0 (people count from 1); ``label("dice_subject")`` a key of another family,
whose template the surface translates too (a key it does not have: that family's ``other``).
Any other param is shown as it is (escaped).
"""

from __future__ import annotations

import string
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

Template = str | tuple[str, str]

NAME = "name"
CARD = "card"
LABEL = "label:"

_TABLES: dict[str, Mapping[str, Template]] = {}
_KINDS: dict[str, dict[str, str]] = {}


@dataclass(frozen=True)
class Description:
    """``code`` is ``"<family>.<key>"``; ``params`` fill the template (JSON-safe)."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def template(self) -> Template:
        return template(self.code)

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params)}


def register(family: str, table: Mapping[str, Template]) -> None:
    """Make a family's table known (kept by reference: a table extended later stays seen)."""
    if "." in family or _TABLES.get(family, table) is not table:
        raise ValueError(f"description family {family!r} is taken or malformed")
    _TABLES[family] = table


def label(family: str) -> str:
    """The kind of a param whose value is a key of ``family``."""
    return LABEL + family


def kinds(family: str, **params: str) -> None:
    """Declare the kind of some params of ``family``'s descriptions (see the module's doc)."""
    _KINDS.setdefault(family, {}).update(params)


def kind_of(code: str, key: str) -> str | None:
    """The declared kind of the param ``key`` of ``code`` (None: shown as it is)."""
    return _KINDS.get(code.split(".", 1)[0], {}).get(key)


def declared_kinds() -> dict[str, dict[str, str]]:
    """family -> param key -> kind, for a surface that renders descriptions elsewhere."""
    return {family: dict(kinds) for family, kinds in _KINDS.items()}


def label_code(family: str, key: object) -> str:
    """The code of a label: ``family.key``, or ``family.other`` for a key it does not have."""
    code = f"{family}.{key}"
    return code if known(code) else f"{family}.other"


def template(code: str) -> Template:
    family, _, key = code.partition(".")
    return _TABLES[family][key]


def known(code: str) -> bool:
    family, _, key = code.partition(".")
    return key in _TABLES.get(family, {})


def templates() -> Iterator[tuple[str, Template]]:
    """Every registered (code, template), family by family."""
    for family, table in _TABLES.items():
        for key, text in table.items():
            yield f"{family}.{key}", text


@cache
def placeholders(text: Template) -> frozenset[str]:
    """The params a template (every form of it) names."""
    forms = (text,) if isinstance(text, str) else text
    parsed = (string.Formatter().parse(form) for form in forms)
    return frozenset(name for fields in parsed for _, name, _, _ in fields if name)


class _Lenient(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "?"


def fill(text: str, params: Mapping[str, Any]) -> str:
    """``text.format`` that shows a param it was not given as «?»."""
    return text.format_map(_Lenient(params))
