"""A quiet chat (issue 12, item 1): a step and every step it caused are told in one message —
the result of an action, or the round header and the turn ping with the acting character's
buttons — and the boards are edited. The chase following the fight adds its round and
Complications to that message, never a «X ходит по карте» line. In a quiet game («тихий
режим») the headers and pings are left out too: only the results, and the acting
character's buttons move to the board.

An NPC's turn pings no one: its buttons are the board's in every game, and a tap (the
board's «Дальше») that only passed the turn to it posts nothing — the board, edited where
the GM pressed, shows whose turn it is. One call for that step instead of two (issue 29:
Telegram's 30 calls a second bound how many tables a bot serves); a typed command is still
answered."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from aiogram import Bot
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, Message
from aiogram.utils.i18n import gettext as _

from bot.board_message import post_in_game
from bot.render.keyboards import keyboard
from bot.systems.savage.callbacks import DamageCallback
from bot.systems.savage.chase.board import chase_names, chase_texts, render_chase
from bot.systems.savage.combat.board import (
    dice_to_gm,
    npc_acts,
    render_board,
    show_board,
    turn_mentions,
)
from bot.systems.savage.render import combat_events
from bot.systems.savage.render.chase import end_summary
from bot.systems.savage.render.turn_menu import turn_rows
from engine import savage
from engine.savage.chase import events as chase_ev
from engine.savage.chase.model import ChaseState
from engine.services import GameInfo
from engine.services.savage import current_chase, quiet_mode
from engine.services.scenes import SceneView

# What a quiet game does not post: the board shows it.
FIGHT_HEADERS = (
    savage.events.DeckShuffled,
    savage.events.RoundStarted,
    savage.events.CardDealt,
    savage.events.TurnStarted,
    savage.events.TurnEnded,
    savage.events.RoundEnded,
)
CHASE_HEADERS = (chase_ev.RoundStarted, chase_ev.TurnStarted)
TURN_HEADERS = (savage.events.TurnStarted, savage.events.TurnEnded)
MAX_TEXT = 4000  # Telegram's limit is 4096 characters


@dataclass(frozen=True)
class Step:
    """One stored step of a stream: ``kind`` "encounter" or "chase"."""

    kind: str
    events: tuple[Any, ...]
    state: Any
    view: SceneView[Any] | None


def steps_of(game_id: int, followed: Sequence[Any]) -> list[Step]:
    return [Step(c.stream.split(":", 1)[0], c.events, c.state, c.view(game_id)) for c in followed]


async def tell_steps(
    bot: Bot,
    game: GameInfo,
    steps: Sequence[Step],
    *,
    before: savage.Encounter | None = None,
    reply_to: Message | None = None,
    fight: savage.Encounter | None = None,
    caused: bool = False,
    append_to: Message | None = None,
    note: str = "",
    chase_open: bool | None = None,
) -> None:
    """Tell `steps` (the first is the command's own unless ``caused``) in one message and
    bring their boards up to date; `fight`: the encounter when no step is one of its;
    `note`: a line of the command's own below the steps (what a multi-name /add left out);
    `chase_open`: whether the step saw a chase open (None: not known, read it)."""
    quiet = quiet_mode(game)
    parts: list[str] = []
    gm_parts: list[str] = []  # the full lines of what the group gets without NPC dice
    rows: list[list[InlineKeyboardButton]] = []
    fight_view: SceneView[Any] | None = None
    chases: list[tuple[Step, combat_events.Names]] = []
    started = False
    for i, step in enumerate(steps):
        followed = caused or i > 0
        if step.kind == "chase":
            name = combat_events.names_of(fight) if fight is not None else await chase_names(game)
            group, full = await _chase_text(game, step, name, fight, quiet=quiet, followed=followed)
            parts.append(group)
            if full:
                gm_parts.append(full)
            chases.append((step, name))
            continue
        fight, fight_view = step.state, step.view
        name = combat_events.names_of(step.state, *([before] if before is not None else []))
        events = step.events
        if quiet:
            events = tuple(e for e in events if not isinstance(e, FIGHT_HEADERS))
        states = (step.state, *([before] if before is not None else []))
        group, full = combat_events.group_texts(events, name, *states)
        parts.append(group)
        if full:
            gm_parts.append(full)
        started = started or any(isinstance(e, savage.events.TurnStarted) for e in step.events)
        if i == 0:
            seq = step.view.seq if step.view is not None else 0
            rows += _result_rows(step.events, step.state, game.id, seq)
    text = "\n".join(p for p in (*parts, note) if p)
    # A player's turn: the ping and the buttons (an NPC's are the board's).
    if started and fight is not None and fight.current is not None and not quiet:
        mentions = await turn_mentions(fight, fight.current)
        if mentions:
            text += "\n👉 " + ", ".join(mentions)
        if chases:
            chase = chases[-1][0].state
        else:
            chase = await _chase_state(game) if chase_open in (True, None) else None
        if not npc_acts(fight):
            rows += turn_rows(fight, game.id, board=False, chase=chase)
    if _npc_turn_tapped(steps, fight, reply_to=reply_to, quiet=quiet, note=note):
        text = ""  # the board says it (the module's docstring)
    if text:
        markup = keyboard(rows) if rows else None
        if append_to is None or not await _append(bot, game, append_to, text, markup):
            await post_in_game(bot, game, text, reply_to=reply_to, markup=markup)
    await dice_to_gm(bot, game, "\n".join(gm_parts))
    if fight_view is not None:  # a chase the steps told of may have opened or closed one
        await render_board(bot, game, fight_view, chase_open=None if chases else chase_open)
    elif not chases:
        await show_board(bot, game)
    for step, name in chases:
        if step.view is not None:
            await render_chase(bot, game, step.view, name=name)


def _npc_turn_tapped(
    steps: Sequence[Step],
    fight: savage.Encounter | None,
    *,
    reply_to: Message | None,
    quiet: bool,
    note: str,
) -> bool:
    """Whether the steps only passed the turn to an NPC, started by a tap (no command to
    answer): nothing to post but its header, which the edited board shows."""
    if quiet or reply_to is not None or note or fight is None or not npc_acts(fight):
        return False
    return all(
        step.kind == "encounter" and all(isinstance(e, TURN_HEADERS) for e in step.events)
        for step in steps
    )


async def _append(
    bot: Bot, game: GameInfo, message: Message, text: str, markup: InlineKeyboardMarkup | None
) -> bool:
    """Add `text` below the bot's `message` (False: too long for one message: post it)."""
    joined = f"{message.html_text}\n{text}"
    if len(joined) > MAX_TEXT:
        return False
    await bot.edit_message_text(
        joined, chat_id=game.chat_id, message_id=message.message_id, reply_markup=markup
    )
    return True


async def _chase_state(game: GameInfo) -> ChaseState | None:
    view = await current_chase(game.id)
    return view.state if view is not None and not view.closed else None


async def _chase_text(
    game: GameInfo,
    step: Step,
    name: combat_events.Names,
    fight: savage.Encounter | None,
    *,
    quiet: bool,
    followed: bool,
) -> tuple[str, str | None]:
    """The chase step for the group, and its full lines for the GM when an NPC's dice are
    left out (`chase_texts`)."""
    events = step.events
    if followed:  # the fight's turn opened it: the fight's message and the row say whose
        events = tuple(e for e in events if not isinstance(e, chase_ev.TurnStarted))
    if quiet:
        events = tuple(e for e in events if not isinstance(e, CHASE_HEADERS))
    text, full = await chase_texts(game, events, name, fight)
    if any(isinstance(e, chase_ev.ChaseEnded) for e in step.events):
        text += ("\n" if text else "") + end_summary(step.state, name)
    return text, full


def _result_rows(
    events: tuple[Any, ...], state: savage.Encounter, game_id: int, seq: int
) -> list[list[InlineKeyboardButton]]:
    """Under an action's result: «перебросить» for a roll a benny may re-roll, «Поглотить» /
    «Принять» for the damage it left waiting (answered in this same message)."""
    rows: list[list[InlineKeyboardButton]] = []
    reroll = combat_events.reroll_keyboard(events, state, game_id)
    if reroll is not None:
        rows += reroll.inline_keyboard
    if state.pending is not None and any(
        isinstance(e, savage.events.DamagePending) for e in events
    ):
        rows.append(
            [
                _damage_button(_("🛡 Soak"), game_id, seq, soak=True),
                _damage_button(_("✔ Take it"), game_id, seq, soak=False),
            ]
        )
    return rows


def _damage_button(text: str, game_id: int, seq: int, *, soak: bool) -> InlineKeyboardButton:
    data = DamageCallback(g=game_id, seq=seq, soak=soak).pack()
    return InlineKeyboardButton(text=text, callback_data=data)
