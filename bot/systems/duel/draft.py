"""A submission form's actions as a short string that travels in the buttons' callback
data (64 bytes), so the form keeps no state of its own: actions separated by «.», each a
kind letter and its digits — ``a<dir><move><ap><damage ap>``, ``t<ap><ease>``,
``b<dir><ap>``, ``d<dir><ap>``, ``f<dir><ap><dodge>``; directions l, r, t."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engine.duel import Action, Attack, Block, Direction, Dodge, FighterClass, FullDefense, Trick

_DIRS: dict[str, Direction] = {"l": "left", "r": "right", "t": "top"}
_LETTERS = {v: k for k, v in _DIRS.items()}
MAX_ACTIONS = 4


class BadDraft(ValueError):
    """A draft no form of this bot wrote (a forged or outdated button)."""


def _digit(text: str, i: int) -> int:
    if i >= len(text) or not text[i].isdigit():
        raise BadDraft(text)
    return int(text[i])


def _dir(text: str) -> Direction:
    if len(text) < 2 or text[1] not in _DIRS:
        raise BadDraft(text)
    return _DIRS[text[1]]


def decode_action(text: str, cls: FighterClass) -> Action:
    kind = text[:1]
    if kind == "a":
        index = _digit(text, 2)
        if index >= len(cls.moves):
            raise BadDraft(text)
        return Attack(_dir(text), cls.moves[index].code, _digit(text, 3), _digit(text, 4))
    if kind == "t":
        return Trick(_digit(text, 1), _digit(text, 2))
    if kind == "b":
        return Block(_dir(text), _digit(text, 2))
    if kind == "d":
        return Dodge(_dir(text), _digit(text, 2))
    if kind == "f":
        return FullDefense(_dir(text), _digit(text, 2), bool(_digit(text, 3)))
    raise BadDraft(text)


def encode_action(action: Action, cls: FighterClass) -> str:
    if isinstance(action, Attack):
        index = next(i for i, m in enumerate(cls.moves) if m.code == action.move)
        return f"a{_LETTERS[action.direction]}{index}{action.ap}{action.damage_ap}"
    if isinstance(action, Trick):
        return f"t{action.ap}{action.ease}"
    if isinstance(action, Block):
        return f"b{_LETTERS[action.direction]}{action.ap}"
    if isinstance(action, Dodge):
        return f"d{_LETTERS[action.direction]}{action.ap}"
    return f"f{_LETTERS[action.direction]}{action.ap}{int(action.dodge)}"


def decode(draft: str, cls: FighterClass) -> tuple[Action, ...]:
    parts = [p for p in draft.split(".") if p]
    if len(parts) > MAX_ACTIONS:
        raise BadDraft(draft)
    return tuple(decode_action(p, cls) for p in parts)


def encode(actions: Sequence[Action], cls: FighterClass) -> str:
    return ".".join(encode_action(a, cls) for a in actions)


def bump(action: Action, what: str, delta: int) -> Action:
    """The action with its AP (``ap``), damage AP (``dm``) or trick ease (``ez``) moved."""
    if what == "dm" and isinstance(action, Attack):
        return replace(action, damage_ap=max(0, action.damage_ap + delta))
    if what == "ez" and isinstance(action, Trick):
        return replace(action, ease=max(0, action.ease + delta))
    if what == "ap":
        return replace(action, ap=max(0, action.ap + delta))
    raise BadDraft(what)


def candidates(cls: FighterClass) -> list[tuple[str, Action]]:
    """Every action a form may offer (the engine's `plan` keeps the allowed ones), with the
    row it goes in: per move its attacks, the trick, block, dodge, full defense."""
    out: list[tuple[str, Action]] = []
    for move in cls.moves:
        out += [(f"attack:{move.code}", Attack(d, move.code)) for d in _DIRS.values()]
    out.append(("trick", Trick()))
    out += [("block", Block(d)) for d in _DIRS.values()]
    out += [("dodge", Dodge(d)) for d in _DIRS.values()]
    out += [("full_block", FullDefense(d)) for d in _DIRS.values()]
    if cls.full_dodge:
        out += [("full_dodge", FullDefense(d, dodge=True)) for d in _DIRS.values()]
    return out
