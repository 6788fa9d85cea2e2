"""Duels of a game: one per forum topic («Два игрока на ветку»), any number per game. Every
use case is one unit of work (engine.services.aggregates.unit): the game row locked, the
duel's stream read once, the engine's decide, one commit with its outbox row.

Exactly once: a submission names the turn it is for (`wrong_turn` after the turn moved
on), the engine refuses a change once both are in (`both_in`) and a second publication of
a turn (`stale_proposal`), and the unit re-decides a command that lost a race on the fresh
state — so however many taps and retries arrive, each turn is published once.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine import duel
from engine.dice.rng import Rng
from engine.receipt import new_salt
from engine.services import aggregates as agg
from engine.services.aggregates.unit import Unit
from engine.services.errors import EventConflict, StaleState
from engine.services.games import get_game
from engine.services.scene_service import Turn, open_scene, scene_command, undo_scene_step
from engine.services.scenes import CommandOutcome, SceneView, UndoOutcome, key_number, view_of
from engine.store.models import Stream

from .aggregates import DUEL, prefix, thread_of
from .errors import SameFighter
from .fighters import FighterRecord, get_fighter
from .rules import game_rules

DuelView = SceneView[duel.DuelState]
DuelOutcome = CommandOutcome[duel.DuelState, duel.Event]
KIND = DUEL.name


def turn_seed(rng: Rng) -> str:
    """The secret a turn's dice come from (engine/duel/dice.py), drawn when the turn opens:
    128 bits of an rng that gives bits (the system's); a source of faces only (the tests'
    scripted dice) commits to none, and its faces are drawn at the seal, kept through a
    change."""
    bits = getattr(rng, "getrandbits", None)
    return f"{bits(128):032x}" if callable(bits) else ""


async def start_duel(
    game_id: int,
    *,
    thread: int,
    a: str | int,
    b: str | int,
    actor_id: int,
    rng: Rng,
    options: duel.DuelOptions | None = None,
) -> DuelOutcome:
    """The GM starts a duel of two saved fighters in a topic (0: no forum topic); their
    owners submit for them (a fighter without one is the GM's). `duel_active` while the
    topic's duel goes on; a finished one stays readable and a new one starts beside it (the
    scene service's `open_scene`, scoped by the topic)."""
    command = await duel_opening(game_id, a, b, options)
    return await open_scene(KIND, game_id, command, actor_id=actor_id, rng=rng, scope=thread)


async def duel_opening(
    game_id: int, a: str | int, b: str | int, options: duel.DuelOptions | None = None
) -> OpenDuel:
    """The start of a duel of the saved fighters `a` and `b` (`no_fighter`; `same_fighter`
    for one named twice), as the scene service's `open_scene` takes it."""
    first, second = await get_fighter(game_id, a), await get_fighter(game_id, b)
    if first.id == second.id:
        raise SameFighter(game_id=game_id)
    return OpenDuel(first, second, options)


@dataclass(frozen=True)
class OpenDuel:
    """The GM's start of a duel as the scene service hands it to `opening_params` and
    `decide_duel`: the two saved fighters, the readings the caller chose (None: the game's)."""

    first: FighterRecord
    second: FighterRecord
    options: duel.DuelOptions | None = None


async def opening_params(unit: Unit, key: str, command: OpenDuel) -> dict[str, Any]:
    """A new duel's stream params: its topic and first state — both fighters, their owners
    and the game's readings (engine/services/duel/rules.py) unless the caller chose."""
    info = unit.game.info
    chosen = command.options or (game_rules(info) if info is not None else duel.DEFAULT_OPTIONS)
    first, second = command.first, command.second
    owners = (first.owner_id, second.owner_id)
    initial = duel.new_duel(first.fighter, second.fighter, chosen, owners=owners)
    return {"thread": thread_of(key), "initial": initial.to_dict()}


@dataclass(frozen=True)
class OnTurn:
    """A duel command with the turn its sender saw (None: any), as the scene service hands
    it to `decide_duel`."""

    command: duel.Command
    turn: int | None = None


async def decide_duel(
    sent: Turn[duel.DuelState, OnTurn | OpenDuel],
) -> tuple[tuple[duel.Event, ...], None]:
    """The duel's decide for the scene service. Its start: its readings and the first turn's
    dice seed, the duel's first step. A command: `wrong_turn` when the duel is past the turn
    the sender saw; the engine is told who sends (None: the GM) — a GM who saved a fighter as
    its owner seals it as its player."""
    state, rng = sent.state, sent.rng
    if isinstance(sent.command, OpenDuel):
        return duel.decide(state, duel.Configure(state.options, seed=turn_seed(rng)), rng), None
    command, turn = sent.command.command, sent.command.turn
    if turn is not None and turn != state.turn:
        raise duel.DuelError("wrong_turn", {"got": turn, "turn": state.turn})
    by = sent.by
    if isinstance(command, duel.Submit) and state.fighter(command.fighter).owner == sent.actor_id:
        by = sent.actor_id
    return duel.decide(state, dataclasses.replace(command, by=by), rng), None


async def duel_command(
    game_id: int,
    thread: int,
    command: duel.Command,
    *,
    actor_id: int,
    rng: Rng,
    expected_seq: int | None = None,
    turn: int | None = None,
) -> DuelOutcome:
    """Decide `command` on the topic's duel as the actor and keep its events as one step
    (the scene service, scoped by the topic). `turn`: the turn the sender saw (`wrong_turn`
    if the duel is past it); `expected_seq`: the seq (`stale_state`)."""
    try:
        return await scene_command(
            KIND, game_id, OnTurn(command, turn), actor_id=actor_id, rng=rng,
            expected_seq=expected_seq, scope=thread,
        )  # fmt: skip
    except EventConflict as exc:  # a command that kept losing races: as stale as it gets
        raise StaleState(**exc.params) from exc


async def submit_turn(
    game_id: int,
    thread: int,
    *,
    fighter: str,
    actions: Sequence[duel.Action],
    turn: int,
    actor_id: int,
    rng: Rng,
    comment: str = "",
    seals: int | None = None,
) -> DuelOutcome:
    """A fighter's sealed turn (or its change until both are in): the dice are rolled now,
    the receipt is what the thread sees. ``seals``: how many times the fighter had sealed
    this turn when the sender's form was made (a double tap, a second worker: refused)."""
    command = duel.Submit(fighter, tuple(actions), new_salt(), comment, seals=seals)
    return await duel_command(game_id, thread, command, actor_id=actor_id, rng=rng, turn=turn)


async def adjust_turn(
    game_id: int,
    thread: int,
    *,
    turn: int,
    fighter: str,
    field: str,
    value: int | bool,
    reason: str,
    actor_id: int,
    rng: Rng,
    action: int = 0,
    check: int = 0,
) -> DuelOutcome:
    """The GM changes a roll or a value of this turn's proposal, with a reason."""
    command = duel.Adjust(turn, fighter, field, value, reason, action, check)
    return await duel_command(game_id, thread, command, actor_id=actor_id, rng=rng, turn=turn)


async def publish_turn(
    game_id: int, thread: int, *, turn: int, actor_id: int, rng: Rng, now: float | None = None
) -> DuelOutcome:
    """The GM publishes `turn` (the proposal with the GM's changes), once; the next turn's
    deadline, if the duel has one, runs from `now` (the clock by default)."""
    command = duel.Publish(turn, now=time.time() if now is None else now, seed=turn_seed(rng))
    return await duel_command(game_id, thread, command, actor_id=actor_id, rng=rng, turn=turn)


async def stop_duel(game_id: int, thread: int, *, actor_id: int, rng: Rng) -> DuelOutcome:
    """The GM stops the topic's running duel: the result so far stands (`/duel стоп`)."""
    return await duel_command(game_id, thread, duel.Stop(), actor_id=actor_id, rng=rng)


async def set_deadline(
    game_id: int,
    thread: int,
    *,
    hours: int | None,
    policy: duel.Policy = "ask",
    actor_id: int,
    rng: Rng,
    now: float | None = None,
) -> DuelOutcome:
    """The GM gives each turn of the topic's duel `hours` (None: no deadline) and says what
    happens when they are out (`policy`); this turn's time runs from `now`."""
    deadline = None if hours is None else duel.Deadline(hours, policy)
    command = duel.SetDeadline(deadline, time.time() if now is None else now)
    return await duel_command(game_id, thread, command, actor_id=actor_id, rng=rng)


async def default_turn(
    game_id: int, thread: int, *, turn: int, fighter: str, actor_id: int, rng: Rng
) -> DuelOutcome:
    """The GM seals the default defense for a fighter silent past the deadline."""
    command = duel.DefaultTurn(turn, fighter, new_salt())
    return await duel_command(game_id, thread, command, actor_id=actor_id, rng=rng, turn=turn)


async def pass_deadline(
    game_id: int, thread: int, *, turn: int, now: float, rng: Rng
) -> DuelOutcome | None:
    """The deadline of `turn` has come: recorded once, on the GM's behalf (None: the game has
    no GM); a duel whose deadline is not due, or was passed already, is refused."""
    gm = (await get_game(game_id)).gm_id
    if gm is None:
        return None
    command = duel.PassDeadline(turn, now, new_salt())
    return await duel_command(game_id, thread, command, actor_id=gm, rng=rng, turn=turn)


async def due_duels(now: float) -> list[DuelView]:
    """Every open duel whose turn's time ran out with a submission missing, not yet acted on
    (read from the stored duels: a deadline survives a restart)."""
    rows = await Stream.filter(key__startswith=f"{KIND}:", closed_at__isnull=True).order_by("id")
    found = []
    for row in rows:
        info = agg.StreamInfo(
            row.game_id, row.key, row.aggregate, row.head_seq, row.head_step,
            row.created_at, row.updated_at, row.closed_at,
        )  # fmt: skip
        view = await view_of(DUEL, info.game_id, info)
        if duel.is_overdue(view.state, now):
            found.append(view)
    return found


async def undo_duel(
    game_id: int, thread: int, *, actor_id: int, expected_step: int | None = None
) -> UndoOutcome[duel.DuelState, duel.Event]:
    """The GM takes back the duel's last step (a submission, a change, a publication)."""
    return await undo_scene_step(
        KIND, game_id, actor_id=actor_id, expected_step=expected_step, scope=thread
    )


async def _stream_of(game_id: int, thread: int) -> agg.StreamInfo | None:
    rows = await Stream.filter(
        game_id=game_id, key__startswith=prefix(thread), closed_at__isnull=True
    )
    if not rows:
        return None
    row = max(rows, key=lambda r: key_number(r.key))
    return agg.StreamInfo(
        game_id, row.key, row.aggregate, row.head_seq, row.head_step,
        row.created_at, row.updated_at, row.closed_at,
    )  # fmt: skip


async def duel_at(game_id: int, key: str) -> DuelView | None:
    """A duel of the game by its stream key (``duel:<thread>:<n>``), open or finished (the
    verification page of its receipts)."""
    row = await Stream.get_or_none(game_id=game_id, key=key)
    if row is None or not key.startswith(f"{KIND}:"):
        return None
    info = agg.StreamInfo(
        game_id, row.key, row.aggregate, row.head_seq, row.head_step,
        row.created_at, row.updated_at, row.closed_at,
    )  # fmt: skip
    return await view_of(DUEL, game_id, info)


async def current_duel(game_id: int, thread: int) -> DuelView | None:
    """The topic's duel as stored now (None: none was started)."""
    stream = await _stream_of(game_id, thread)
    return None if stream is None else await view_of(DUEL, game_id, stream)


async def open_duels(game_id: int) -> list[DuelView]:
    """The game's open duels, oldest first (each topic's newest)."""
    rows = await Stream.filter(
        game_id=game_id, key__startswith=f"{KIND}:", closed_at__isnull=True
    ).order_by("id")
    threads = sorted({int(r.key.split(":")[1]) for r in rows})
    views = [await current_duel(game_id, t) for t in threads]
    return [v for v in views if v is not None]
