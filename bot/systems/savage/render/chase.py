"""The chase row (one message the bot keeps editing): cards with suit and value, who
stands where, distances between opponents, choices that wait; and the chase events (their
sentences are the descriptions of engine/savage/chase/describe.py)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup
from aiogram.utils.i18n import gettext as _

from bot.render import texts
from bot.render.common import quoted
from bot.render.limits import fit
from bot.systems.savage.callbacks import ChaseCallback
from bot.systems.savage.render.combat_events import (
    Names,
    Shown,
    trait_result_text,
    trait_text,
)
from bot.systems.savage.render.combat_labels import card_text
from engine import describe
from engine.dice import result_from_dict
from engine.dice.results import Modifier
from engine.savage import Card
from engine.savage.chase import ChaseState, Pending, card_distance
from engine.savage.chase import describe as d
from engine.savage.chase import events as ev
from engine.savage.chase.describe import describe_event
from engine.savage.chase.model import ESCAPED, OUT_OF_ACTION
from engine.savage.chase.roll import ManeuverRoll
from engine.savage.dice.results import TraitResult

MAX_CHARS = 3800
# Joins the parts of a row button's ``arg``: ":" separates callback data fields and may not
# appear inside one (aiogram refuses to pack it).
ARG_SEP = ","


def position(index: int) -> str:
    """Cards are numbered from 1 for people (the engine counts from 0)."""
    return str(index + 1)


def _unit_text(state: ChaseState, pid: str, name: Names) -> str:
    members = [m.id for m in state.members(pid) if m.active]
    text = name(pid)
    if any(t.participant == pid for t in state.turns):
        text = f"<b>{text}</b>▶️"
    if members:
        text += " (" + ", ".join(name(m) for m in members) + ")"
    return text


def choice_label(choice: str) -> str:
    """A choice on a critical failure (its label is the chase log's too)."""
    return texts.template_text(describe.label_code("chase_choice", choice))


def _pending_line(p: Pending, name: Names) -> str:
    if p.kind == "critical":
        return _("⏳ {name}: critical failure — the GM chooses the outcome.").format(
            name=name(p.target)
        )
    if p.kind == "shift":
        return _("⏳ {name} may shift up to {count} cards.").format(
            name=name(p.target), count=p.max_cards
        )
    return _("⏳ {name} is bumped up to {count} card(s): the opposing side chooses.").format(
        name=name(p.target), count=p.max_cards
    )


def chase_board_text(state: ChaseState, name: Names, *, closed: bool = False) -> str:
    if state.ended is not None or closed:
        title = _("🏃 <b>The chase is over</b> (round {round})").format(round=state.round)
    elif state.round:
        title = _("🏃 <b>Chase · round {round}</b>").format(round=state.round)
    else:
        title = _("🏃 <b>Chase</b> — the round has not started")
    if state.options.round_limit:
        title += " " + _("(limit {limit})").format(limit=state.options.round_limit)
    lines = [title]
    units = [p for p in state.participants if p.active and p.leader is None]
    for index, card in enumerate(state.row):
        here = [_unit_text(state, p.id, name) for p in units if p.position == index]
        lines.append(f"<code>{position(index):>2}</code> {card_text(card)} " + ", ".join(here))
    for side in state.sides():
        who = [name(p.id) for p in state.participants if p.side == side and p.active]
        lines.append(_("Side {side}: {who}").format(side=quoted(side), who=", ".join(who) or "—"))
    gone = [p for p in state.participants if not p.active]
    for p in gone:
        status = _("escaped") if p.status == "escaped" else _("out of action")
        lines.append(f"· {name(p.id)} — {status}")
    lines += _distance_lines(state, name)
    lines += [_pending_line(p, name) for p in state.pending]
    text = "\n".join(lines)
    return fit(text, MAX_CHARS)  # at a line break, tags closed (bot/render/limits.py)


def _distance_lines(state: ChaseState, name: Names) -> list[str]:
    units = [p for p in state.participants if p.active and p.leader is None]
    pairs = []
    for i, a in enumerate(units):
        for b in units[i + 1 :]:
            if a.side != b.side:
                d = card_distance(state, a.id, b.id)
                pairs.append(f"{name(a.id)} ↔ {name(b.id)}: {d}")
    return [_("Distances in cards: {pairs}").format(pairs="; ".join(pairs))] if pairs else []


def _bump_arg(pending: str, direction: int, cards: int) -> str:
    return ARG_SEP.join((pending, str(direction), str(cards)))


def chase_keyboard(state: ChaseState, game_id: int, seq: int) -> InlineKeyboardMarkup | None:
    def button(text: str, action: str, arg: str = "") -> InlineKeyboardButton:
        data = ChaseCallback(action=action, game_id=game_id, seq=seq, arg=arg).pack()
        return InlineKeyboardButton(text=text, callback_data=data)

    if state.ended is not None:
        return None
    rows: list[list[InlineKeyboardButton]] = []
    for p in state.pending:
        if p.kind == "critical":
            # one a row: the outcomes are phrases («теряет остаток хода»), cut three a row
            rows += [[button(choice_label(c), "crit", f"{p.id}{ARG_SEP}{c}")] for c in p.choices]
            continue
        row = [button(f"⬅️ {n}", "bump", _bump_arg(p.id, -1, n)) for n in range(p.max_cards, 0, -1)]
        if p.kind == "shift":
            row.append(button("0", "bump", _bump_arg(p.id, 1, 0)))
        row += [button(f"{n} ➡️", "bump", _bump_arg(p.id, 1, n)) for n in range(1, p.max_cards + 1)]
        rows.append(row)
    rows.append([button(_("↩️ Undo"), "undo")])
    return InlineKeyboardMarkup(inline_keyboard=rows)


# --- events ---------------------------------------------------------------------------------


def roll_text(roll: ManeuverRoll, *, dice: bool = True) -> str:
    """The dice of the roll with the chase's own labels (Осложнение, Отрыв …). The dice
    engine's own modifiers (unskilled −2, the +N of d12+N) stay; the unlabelled ones it
    made of the chase's modifiers get their chase labels. ``dice`` False: without the dice
    (an NPC's: its maneuvering die is the GM's)."""
    result = result_from_dict(roll.result)
    assert isinstance(result, TraitResult)
    own = tuple(m for m in result.modifiers if m.label != "modifier")
    labelled = tuple(Modifier(label, value) for label, value in roll.modifiers)
    result = replace(result, modifiers=own + labelled)
    return trait_text(result) if dice else trait_result_text(result)


def _line(e: ev.Event, name: Names, *, dice: bool = True) -> str | None:
    description = describe_event(e)
    if description is None:
        return None
    card = lambda code: card_text(Card.parse(code))  # noqa: E731
    roll = lambda data: roll_text(ManeuverRoll.from_dict(data), dice=dice)  # noqa: E731
    return texts.text(description, name, {d.CARD_FACE: card, d.MANEUVER_ROLL: roll})


def roller(e: ev.Event) -> str | None:
    """The participant whose maneuvering roll an event shows (None: no roll)."""
    return getattr(e, "participant", None) if getattr(e, "roll", None) is not None else None


def chase_events_text(events: Iterable[ev.Event], name: Names, shown: Shown | None = None) -> str:
    """``shown``: whose dice the group may see (None: everyone's); the others' rolls
    without their dice (docs/rules/savage.md «Dice in the group»)."""
    lines = []
    for e in events:
        who = roller(e)
        dice = shown is None or who is None or shown(who)
        if line := _line(e, name, dice=dice):
            lines.append(line)
    return "\n".join(lines)


def end_summary(state: ChaseState, name: Names) -> str:
    """Who got away (a successful Flee), who was taken out, who was still in the chase when
    it ended (caught, or still pursuing: the GM tells which)."""
    groups = (
        (_("Got away: {who}."), [p.id for p in state.participants if p.status == ESCAPED]),
        (
            _("Out of action: {who}."),
            [p.id for p in state.participants if p.status == OUT_OF_ACTION],
        ),
        (_("In the chase to the end: {who}."), [p.id for p in state.participants if p.active]),
    )
    return "\n".join(
        template.format(who=", ".join(name(pid) for pid in ids)) for template, ids in groups if ids
    )


def chase_no_turn(who: str) -> str:
    return _(
        "{name} acts in the fight, but the chase turn is not open: the GM opens it with "
        "<code>/chase turn</code>."
    ).format(name=who)


def chase_usage() -> str:
    return _(
        "<b>Chase</b> (the GM): <code>/chase</code> — nine cards (<code>/chase 12</code> — "
        "more); <code>/chase add Ичиго беглецы 3</code> — on card 3; "
        "<code>/chase place Ичиго 5</code>, <code>/chase cards 2 [сзади]</code>, "
        "<code>/chase mod Ичиго +1</code>, <code>/chase group Пустой 2 Пустой 1</code>, "
        "<code>/chase limit 5</code>, <code>/chase out Гриммджо</code>, "
        "<code>/chase undo</code>; <code>/chase end</code> (or <code>/chase stop</code>) ends "
        "it, <code>/chase end преследователи</code> — that side stops.\n"
        "Players: <code>/move вперёд</code> (<code>/move назад действием +1</code>), "
        "<code>/back 2</code>, <code>/bump Гриммджо назад</code>, <code>/flee</code>."
    )


def chase_closed() -> str:
    return _("The chase is over and closed; its log is kept. A new /chase starts a new one.")


def chase_undone() -> str:
    return _("↩️ The last chase step is undone.")
