"""Descriptions (engine/describe.py) as chat HTML: the template of the shared ``engine``
catalog in the update's locale, filled with params rendered the chat's way (escaped text,
quoted names, card numbers from 1, translated labels)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from aiogram.utils.i18n import I18n

from bot.render.common import quoted
from engine import describe, texts
from engine.describe import Description
from engine.errors import CodedError

Names = Callable[[str], str]


def locale() -> str:
    i18n = I18n.get_current(no_error=True)
    return i18n.current_locale if i18n is not None else texts.DEFAULT_LOCALE


def template_text(code: str, count: int = 1) -> str:
    """The translated template of ``code`` (unfilled)."""
    return texts.translate(locale(), describe.template(code), count)


Renderers = Mapping[str, Callable[[Any], str]]


def param_text(
    code: str, key: str, value: Any, name: Names | None = None, kinds: Renderers | None = None
) -> str:
    """One param as chat HTML, by the kind its family declares (``kinds``: the renderers of a
    rule system's own kinds)."""
    kind = describe.kind_of(code, key)
    if kinds is not None and kind is not None and kind in kinds:
        return kinds[kind](value)
    if kind == describe.CARD and isinstance(value, int):
        return str(value + 1)
    if kind is not None and kind.startswith(describe.LABEL):
        return template_text(describe.label_code(kind.removeprefix(describe.LABEL), value))
    if kind == describe.NAME and name is not None and isinstance(value, str):
        return name(value)
    return quoted(str(value))


def text(
    description: Description,
    name: Names | None = None,
    kinds: Renderers | None = None,
    rendered: Mapping[str, str] | None = None,
) -> str:
    """The sentence; ``rendered`` gives params already in HTML."""
    code, params, rendered = description.code, description.params, rendered or {}
    sentence = template_text(code, texts.count_of(dict(params)))
    used = describe.placeholders(sentence) - rendered.keys()
    filled = {k: param_text(code, k, params[k], name, kinds) for k in used if k in params}
    return describe.fill(sentence, filled | dict(rendered))


def error_text(error: CodedError, rendered: Mapping[str, str] | None = None) -> str | None:
    """The refusal's sentence, or None when its code has no template."""
    if not describe.known(error.description.code):
        return None
    return text(error.description, rendered=rendered)
