"""The text of a whole duel: both sheets, then every published turn as its forum post, in
one language. Pure: the caller gives ``translate`` (a template and a count to the text in
its language; by default the English templates) — the chat and the Mini App pass their
catalog's."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine import describe
from engine.describe import LABEL, NAME, Description, Template

from .describe import published_post
from .proposal import Published
from .sheet import format_sheet
from .state import DuelState

Translate = Callable[[Template, int], str]


def english(text: Template, count: int = 1) -> str:
    if isinstance(text, str):
        return text
    return text[0] if count == 1 else text[1]


def render(d: Description, names: Mapping[str, str], translate: Translate = english) -> str:
    """One description as plain text: ids named, labels translated, the rest as it is."""
    params: dict[str, Any] = {}
    for key, value in d.params.items():
        kind = describe.kind_of(d.code, key)
        if kind == NAME:
            params[key] = names.get(str(value), str(value))
        elif kind and kind.startswith(LABEL):
            code = describe.label_code(kind[len(LABEL) :], value)
            params[key] = translate(describe.template(code), 1)
        else:
            params[key] = value
    count = params.get("count")
    text = translate(d.template, count if isinstance(count, int) else 1)
    return describe.fill(text, params)


def turn_text(
    published: Published, names: Mapping[str, str], translate: Translate = english
) -> str:
    return "\n".join(render(d, names, translate) for d in published_post(published))


def export_text(state: DuelState, translate: Translate = english) -> str:
    names = {f.id: f.fighter.name for f in state.fighters}
    parts = [format_sheet(f.fighter) for f in state.fighters]
    parts += [turn_text(p, names, translate) for p in state.history]
    return "\n\n".join(parts) + "\n"
