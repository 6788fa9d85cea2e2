"""The chase row (one message the bot keeps editing): cards with suit and value, who
stands where, distances between opponents, choices that wait; and the chase events."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup
from aiogram.utils.i18n import gettext as _
from aiogram.utils.i18n import ngettext

from bot.render.common import quoted
from bot.systems.savage.callbacks import ChaseCallback
from bot.systems.savage.render.combat_events import Names, trait_text
from bot.systems.savage.render.combat_labels import card_text
from engine.dice import result_from_dict
from engine.dice.results import Modifier, TraitResult
from engine.savage.chase import ChaseState, Pending, card_distance
from engine.savage.chase import events as ev
from engine.savage.chase.roll import ManeuverRoll

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
    return {
        "lose_turn": _("loses the rest of the turn"),
        "fatigue": _("gains Fatigue"),
        "out_of_control": _("out of control"),
        "narrated": _("the GM narrates"),
    }.get(choice, quoted(choice))


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
    return text if len(text) <= MAX_CHARS else text[:MAX_CHARS] + "…"


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
            rows.append([button(choice_label(c), "crit", f"{p.id}{ARG_SEP}{c}") for c in p.choices])
            continue
        row = [button(f"⬅️ {n}", "bump", _bump_arg(p.id, -1, n)) for n in range(p.max_cards, 0, -1)]
        if p.kind == "shift":
            row.append(button("0", "bump", _bump_arg(p.id, 1, 0)))
        row += [button(f"{n} ➡️", "bump", _bump_arg(p.id, 1, n)) for n in range(1, p.max_cards + 1)]
        rows.append(row)
    rows.append([button(_("↩️ Undo"), "undo")])
    return InlineKeyboardMarkup(inline_keyboard=rows)


# --- events ---------------------------------------------------------------------------------


def roll_text(roll: ManeuverRoll) -> str:
    """The dice of the roll with the chase's own labels (Осложнение, Отрыв …). The dice
    engine's own modifiers (unskilled −2, the +N of d12+N) stay; the unlabelled ones it
    made of the chase's modifiers get their chase labels."""
    result = result_from_dict(roll.result)
    assert isinstance(result, TraitResult)
    own = tuple(m for m in result.modifiers if m.label != "modifier")
    labelled = tuple(Modifier(label, value) for label, value in roll.modifiers)
    return trait_text(replace(result, modifiers=own + labelled))


def _direction(direction: int) -> str:
    return _("forward") if direction > 0 else _("back")


def _cards(count: int) -> str:
    return ngettext("{count} card", "{count} cards", count).format(count=count)


def _complication(e: ev.ComplicationRolled, name: Names) -> str:
    result = {
        "passed": _("passed"),
        "bump": _("failed: a Bump"),
        "shift_two": _("failed: a shift of up to two cards"),
        "critical_failure": _("critical failure"),
        "lucky_shift": _("a lucky shift of up to two cards"),
        "no_effect": _("no effect"),
    }.get(e.result, quoted(e.result))
    return _("♣ Complication for {name} on {card}: {roll} — {result}").format(
        name=name(e.participant),
        card=card_text(e.chase_card),
        roll=roll_text(e.roll),
        result=result,
    )


def _line(e: ev.Event, name: Names) -> str | None:
    if isinstance(e, ev.ChaseStarted):
        return _("🏃 The chase begins: {count} cards in a row.").format(count=len(e.row))
    if isinstance(e, ev.CardsLaid):
        return _("➕ {cards} laid at the {end}.").format(
            cards=_cards(len(e.cards)), end=_("front") if e.at == "front" else _("rear")
        )
    if isinstance(e, ev.ParticipantAdded):
        p = e.participant
        return _("➕ {name} ({side}) on card {card}.").format(
            name=name(p.id), side=quoted(p.side), card=position(p.position)
        )
    if isinstance(e, ev.RoundStarted):
        return _("🏃 Chase round {round}.").format(round=e.round)
    if isinstance(e, ev.TurnStarted):
        if e.action_card is None:
            return _("🏃 {name} acts from Hold, without an action card (no Complication).").format(
                name=name(e.participant)
            )
        return _("🏃 {name} moves on {card}.").format(
            name=name(e.participant), card=card_text(e.action_card)
        )
    if isinstance(e, ev.ComplicationRolled):
        return _complication(e, name)
    if isinstance(e, ev.PositionChangeRolled):
        moved = _cards(e.cards) + " " + _direction(e.direction) if e.cards else _("stays")
        return _("🏃 {name} changes position: {roll} — {moved}").format(
            name=name(e.participant), roll=roll_text(e.roll), moved=moved
        )
    if isinstance(e, ev.DroppedBack):
        return _("🐢 {name} drops back {cards}.").format(
            name=name(e.participant), cards=_cards(e.cards)
        )
    if isinstance(e, ev.Bumped):
        return _("💢 {attacker} bumps {target} {direction}.").format(
            attacker=name(e.attacker), target=name(e.target), direction=_direction(e.direction)
        )
    if isinstance(e, ev.PendingMoveResolved):
        return _("↔️ Moved {cards} {direction}.").format(
            cards=_cards(e.cards), direction=_direction(e.direction)
        )
    if isinstance(e, ev.CriticalFailureResolved):
        return _("Critical failure: {choice}.").format(choice=choice_label(e.choice))
    if isinstance(e, ev.FleeRolled):
        result = _("escapes!") if e.escaped else _("does not get away")
        return _("🏁 {name} tries to flee ({distance} cards): {roll} — {result}").format(
            name=name(e.participant), distance=e.distance, roll=roll_text(e.roll), result=result
        )
    if isinstance(e, ev.TakenOutOfAction):
        return _("✖ {name} is out of the chase.").format(name=name(e.participant))
    if isinstance(e, ev.Moved):
        return _("{name} is on card {card}.").format(
            name=name(e.participant), card=position(e.position)
        )
    if isinstance(e, ev.ChaseEnded):
        return _end_line(e)
    if isinstance(e, ev.ActionsDeclared):
        return ngettext(
            "{name} declares {count} action.", "{name} declares {count} actions.", e.count
        ).format(name=name(e.participant), count=e.count)
    if isinstance(e, ev.ModifierSet):
        return _("{name}: standing modifier {value}.").format(
            name=name(e.participant), value=e.modifier
        )
    if isinstance(e, ev.GroupJoined):
        return _("{name} moves with {leader}.").format(
            name=name(e.participant), leader=name(e.leader)
        )
    if isinstance(e, ev.GroupLeft):
        return _("{name} moves alone.").format(name=name(e.participant))
    if isinstance(e, ev.RoundLimitSet):
        return _("Round limit: {limit}.").format(limit=e.limit or "—")
    # ev.HealthSet: bookkeeping copied from the fight, which has already told the Wound or
    # the Fatigue; the maneuvering rolls show the penalty («Раны», «усталость»).
    return None


def _end_line(e: ev.ChaseEnded) -> str:
    reason = {
        "out_of_action": _("one side is out of action"),
        "escaped": _("the fugitives got away"),
        "side_stopped": _("one side stopped"),
        "goal_reached": _("the goal is reached"),
        "round_limit": _("the rounds ran out"),
    }.get(e.reason, quoted(e.reason))
    return _("🏁 The chase is over: {reason}.").format(reason=reason)


def chase_events_text(events: Iterable[ev.Event], name: Names) -> str:
    return "\n".join(line for e in events if (line := _line(e, name)))


def chase_usage() -> str:
    return _(
        "<b>Chase</b> (the GM): <code>/chase</code> — nine cards (<code>/chase 12</code> — "
        "more); <code>/chase add Ичиго беглецы 3</code> — on card 3; "
        "<code>/chase place Ичиго 5</code>, <code>/chase cards 2 [сзади]</code>, "
        "<code>/chase mod Ичиго +1</code>, <code>/chase group Пустой 2 Пустой 1</code>, "
        "<code>/chase limit 5</code>, <code>/chase stop преследователи</code>, "
        "<code>/chase out Гриммджо</code>, <code>/chase undo</code>, <code>/chase end</code>.\n"
        "Players: <code>/move вперёд</code> (<code>/move назад действием +1</code>), "
        "<code>/back 2</code>, <code>/bump Гриммджо назад</code>, <code>/flee</code>."
    )


def chase_closed() -> str:
    return _("The chase is closed. Its log is kept.")


def chase_undone() -> str:
    return _("↩️ The last chase step is undone.")
