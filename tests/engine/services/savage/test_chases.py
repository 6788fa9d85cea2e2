"""SWADE chases through the service layer: set-up, control by players, turns on the
encounter's action cards, undo, and a whole chase from the start to a successful Flee."""

from __future__ import annotations

import asyncio
import random

import pytest

from engine import services
from engine.dice.rng import ScriptedRng
from engine.savage import (
    AcceptDamage,
    ActNow,
    ApplyDamage,
    Attack,
    Hold,
    NextTurn,
    RemoveCombatant,
    RuleError,
    SetStatus,
)
from engine.savage.cards import Card
from engine.savage.chase import (
    AddParticipant,
    Bump,
    ChangePosition,
    ChaseError,
    ChaseOptions,
    ChaseState,
    EndTurn,
    Flee,
    Participant,
    PlaceParticipant,
    ResolveBump,
    ResolveCriticalFailure,
    StartRound,
    StartTurn,
    nearest_opponent_distance,
)
from engine.savage.chase.events import ComplicationRolled, PositionChangeRolled
from engine.services import aggregates as agg
from engine.services import savage as swade
from tests.engine.services.conftest import ALICE, BOB, CAROL, GM
from tests.engine.services.savage.test_encounters import GRIMMJOW, ICHIGO, RUKIA

RUNNER, HUNTER = "ichigo", "grimmdzho"  # encounter ids of Ichigo (Alice's) and Grimmjow


@pytest.fixture
async def scene(game: services.GameInfo) -> services.GameInfo:
    """An encounter with Ichigo (Alice) and Grimmjow (NPC); Bob plays Rukia, not in it."""
    await services.join_game(game.id, ALICE)
    await services.join_game(game.id, BOB)
    await swade.save_character(game.id, ICHIGO, actor_id=ALICE)
    await swade.save_character(game.id, RUKIA, actor_id=BOB)
    await swade.save_character(game.id, GRIMMJOW, actor_id=GM)
    await swade.start_encounter(game.id, actor_id=GM)
    rng = random.Random(0)
    for name in ("Ичиго", "Гриммджо"):
        await swade.add_to_encounter(game.id, name, actor_id=GM, rng=rng)
    return game


async def gm(game_id: int, command: object, rng: random.Random) -> swade.ChaseOutcome:
    return await swade.chase_command(game_id, command, actor_id=GM, rng=rng)  # type: ignore[arg-type]


async def set_up(
    game_id: int, rng: random.Random, *, runner_at: int = 6, cards: int = 9, hunter: int = 10
) -> None:
    await swade.start_chase(game_id, actor_id=GM, rng=rng, cards=cards)
    await gm(game_id, AddParticipant(RUNNER, "quarry", runner_at, die=8), rng)
    await gm(game_id, AddParticipant(HUNTER, "pursuers", 0, die=hunter), rng)
    await gm(game_id, StartRound(), rng)


async def resolve_pending(game_id: int, state: ChaseState, rng: random.Random) -> ChaseState:
    """The GM answers Complications: a critical failure costs the turn, a Bump goes back."""
    for pending in state.pending:
        if pending.kind == "critical":
            state = (await gm(game_id, ResolveCriticalFailure(pending.id, "lose_turn"), rng)).state
        else:
            command = ResolveBump(pending.id, -1, cards=pending.max_cards)
            state = (await gm(game_id, command, rng)).state
    return state


# --- set-up ---------------------------------------------------------------------------------


async def test_start_chase_is_for_the_gm_and_checked_first(scene: services.GameInfo) -> None:
    rng = random.Random(1)
    with pytest.raises(services.NotGm):
        await swade.start_chase(scene.id, actor_id=ALICE, rng=rng)
    with pytest.raises(ChaseError) as err:  # refused before a stream is opened
        await swade.start_chase(scene.id, actor_id=GM, rng=rng, cards=60)
    assert err.value.code == "bad_row_size"
    with pytest.raises(ChaseError):
        await swade.start_chase(scene.id, actor_id=GM, rng=rng, options=ChaseOptions(scale=0))
    assert await swade.current_chase(scene.id) is None

    out = await swade.start_chase(
        scene.id, actor_id=GM, rng=rng, cards=12, options=ChaseOptions(scale=5)
    )
    assert out.stream == "chase:1" and out.step_id == 1 and len(out.state.row) == 12
    assert out.state.options.scale == 5
    with pytest.raises(swade.ChaseActive):
        await swade.start_chase(scene.id, actor_id=GM, rng=rng)
    (step,) = await agg.history(scene.id, "chase:1")
    assert step.events[0]["type"] == "chase_started"  # the store's "type" = the engine's kind
    current = await swade.current_chase(scene.id)
    assert current is not None and current.state == out.state
    assert await agg.load(swade.CHASE, scene.id, "chase:1", rebuild=True) == (out.state, 1)


async def test_players_move_only_what_they_control(scene: services.GameInfo) -> None:
    rng = random.Random(2)
    await set_up(scene.id, rng)
    await gm(scene.id, AddParticipant("Рукия", "quarry", 5, die=8), rng)  # library link
    for pid in (RUNNER, HUNTER, "Рукия"):
        await gm(scene.id, StartTurn(pid, Card.parse("KS")), rng)

    moved = await swade.chase_command(scene.id, ChangePosition(RUNNER, +1), actor_id=ALICE, rng=rng)
    assert moved.state.turn(RUNNER) is not None and moved.state.turn(RUNNER).changed_position  # type: ignore[union-attr]
    await swade.chase_command(scene.id, ChangePosition("Рукия", +1), actor_id=BOB, rng=rng)
    for actor, command in (
        (BOB, ChangePosition(RUNNER, +1)),  # Alice's
        (ALICE, ChangePosition(HUNTER, -1)),  # the GM's NPC
        (ALICE, Bump(HUNTER, RUNNER, -1)),  # bumping as the NPC
        (ALICE, ResolveBump("1.1", +1)),  # chooser None = as the GM
    ):
        with pytest.raises(services.NotYourCharacter):
            await swade.chase_command(scene.id, command, actor_id=actor, rng=rng)
    gm_only = (StartRound(), StartTurn(RUNNER, Card.parse("AS")), PlaceParticipant(RUNNER, 8))
    for command in gm_only:
        with pytest.raises(services.NotGm):  # a player's StartTurn would pick the card
            await swade.chase_command(scene.id, command, actor_id=ALICE, rng=rng)
    with pytest.raises(services.NotMember):
        await swade.chase_command(scene.id, Flee(RUNNER), actor_id=CAROL, rng=rng)
    with pytest.raises(ChaseError) as err:  # allowed to try; the rules refuse
        await swade.chase_command(scene.id, ChangePosition(RUNNER, +1), actor_id=ALICE, rng=rng)
    assert err.value.code == "already_changed_position"
    await swade.chase_command(scene.id, EndTurn(RUNNER), actor_id=ALICE, rng=rng)


async def test_undo_and_end_are_for_the_gm(scene: services.GameInfo) -> None:
    rng = random.Random(3)
    await set_up(scene.id, rng)
    before = await swade.current_chase(scene.id)
    await gm(scene.id, StartTurn(RUNNER, Card.parse("KS")), rng)
    with pytest.raises(services.NotGm):
        await swade.undo_chase(scene.id, actor_id=ALICE)
    undone = await swade.undo_chase(scene.id, actor_id=GM, expected_step=5)
    assert before is not None and undone.state == before.state and undone.undone_step == 5
    with pytest.raises(services.NotGm):
        await swade.end_chase(scene.id, actor_id=ALICE)
    await services.set_board_message(scene.id, "chase", 77)
    ended = await swade.end_chase(scene.id, actor_id=GM)
    assert ended.closed and ended.board_message_id == 77
    assert await swade.current_chase(scene.id) is None
    with pytest.raises(swade.NoChase):
        await gm(scene.id, StartRound(), rng)
    assert (await swade.current_encounter(scene.id)) is not None  # the fight goes on


# --- turns from the encounter ---------------------------------------------------------------


async def test_chase_turns_take_the_encounters_action_card(scene: services.GameInfo) -> None:
    rng = random.Random(4)
    await set_up(scene.id, rng)
    with pytest.raises(swade.NobodyActing):  # no round dealt yet
        await swade.start_chase_turn(scene.id, actor_id=GM, rng=rng)
    dealt = await swade.encounter_command(scene.id, NextTurn(), actor_id=GM, rng=rng)
    acting = dealt.state.acting
    assert acting is not None and acting.card is not None
    if acting.id == HUNTER:
        with pytest.raises(services.NotYourCharacter):  # Alice does not run Grimmjow
            await swade.start_chase_turn(scene.id, actor_id=ALICE, rng=rng)
    opened = dealt.followed_in("chase")  # the deal opened the chase turn, in the same step
    assert opened is not None
    turn = opened.state.turn(acting.id)
    assert turn is not None and turn.action_card == acting.card
    with pytest.raises(ChaseError) as err:
        await swade.start_chase_turn(scene.id, actor_id=GM, rng=rng)
    assert err.value.code == "turn_in_progress"
    with pytest.raises(swade.NotInChase):
        await swade.start_chase_turn(scene.id, actor_id=GM, rng=rng, participant="nobody")


async def test_acting_from_a_hold_kept_since_the_last_round_opens_a_turn_without_a_card(
    scene: services.GameInfo,
) -> None:
    # Seed 000 line 21: a Hold carried over gets no new card; docs/rules/chase.md «Hold»: the
    # chase turn still opens, without a card (so without a Complication).
    rng = random.Random(5)
    await set_up(scene.id, rng)
    state = (await swade.encounter_command(scene.id, NextTurn(), actor_id=GM, rng=rng)).state
    if state.current != RUNNER:
        state = (await swade.encounter_command(scene.id, NextTurn(), actor_id=GM, rng=rng)).state
    assert state.current == RUNNER and state.round == 1
    await swade.encounter_command(scene.id, Hold(RUNNER), actor_id=ALICE, rng=rng)
    while state.round == 1:
        state = (await swade.encounter_command(scene.id, NextTurn(), actor_id=GM, rng=rng)).state
    assert state.combatant(RUNNER).card is None and state.combatant(RUNNER).hold
    acted = await swade.encounter_command(scene.id, ActNow(RUNNER), actor_id=ALICE, rng=rng)
    if acted.state.current != RUNNER:  # Grimmjow is acting: Ichigo goes right after him
        acted = await swade.encounter_command(scene.id, NextTurn(), actor_id=GM, rng=rng)
    assert acted.state.current == RUNNER
    opened = acted.followed_in("chase")  # the turn opened with the fight's, in one step
    assert opened is not None
    turn = opened.state.turn(RUNNER)
    assert turn is not None and turn.action_card is None
    assert not [e for e in opened.events if isinstance(e, ComplicationRolled)]


async def test_undoing_a_fight_step_takes_back_the_chase_steps_it_caused(
    scene: services.GameInfo,
) -> None:
    rng = random.Random(6)
    await set_up(scene.id, rng)
    before = await swade.current_chase(scene.id)
    dealt = await swade.encounter_command(scene.id, NextTurn(), actor_id=GM, rng=rng)
    chased = dealt.followed_in("chase")  # stored with the deal, in the same transaction
    assert chased is not None and chased.steps == 2  # a chase round and the first turn
    assert (await swade.current_chase(scene.id)).state == chased.state
    assert chased.state.turns

    undone = await swade.undo_encounter(scene.id, actor_id=GM)
    assert undone.caused_undone == 2  # StartRound and StartTurn: both went with it
    assert (await swade.current_chase(scene.id)).state == before.state

    # a chase step made since (a player's move) is never undone with a fight step
    dealt = await swade.encounter_command(scene.id, NextTurn(), actor_id=GM, rng=rng)
    acting = dealt.state.current
    owner = ALICE if acting == RUNNER else GM
    move = ChangePosition(acting, 1)
    moved = await swade.chase_command(scene.id, move, actor_id=owner, rng=rng)
    undone = await swade.undo_encounter(scene.id, actor_id=GM)
    assert undone.caused_undone == 0
    assert (await swade.current_chase(scene.id)).state == moved.state


async def test_racing_moves_never_apply_twice(scene: services.GameInfo) -> None:
    rng = random.Random(6)
    await set_up(scene.id, rng)
    await gm(scene.id, StartTurn(RUNNER, Card.parse("KS")), rng)
    results = await asyncio.gather(
        *(
            swade.chase_command(scene.id, ChangePosition(RUNNER, +1), actor_id=who, rng=rng)
            for who in (ALICE, GM)
        ),
        return_exceptions=True,
    )
    assert sum(isinstance(r, services.CommandOutcome) for r in results) == 1, results
    (refused,) = [r for r in results if isinstance(r, ChaseError)]
    assert refused.code == "already_changed_position"


# --- a whole chase --------------------------------------------------------------------------


async def test_a_chase_from_the_start_to_flee(scene: services.GameInfo) -> None:
    """Seed 001: the runner keeps moving away and flees once four cards ahead (lines
    45-46); the hunter closes in. Turn order and Complications come from the encounter's
    action cards; Alice moves Ichigo, the GM Grimmjow."""
    rng = random.Random(5)
    await set_up(scene.id, rng, runner_at=3, cards=12, hunter=6)  # a slower hunter
    fled = turns = 0
    state = ChaseState()
    for _ in range(40):
        # The fight's step opens the chase round and turn (and ends the last chase turn).
        dealt = await swade.encounter_command(scene.id, NextTurn(), actor_id=GM, rng=rng)
        acting = dealt.state.acting
        assert acting is not None
        chased = dealt.followed_in("chase")
        assert chased is not None
        owner = ALICE if acting.id == RUNNER else GM
        state = await resolve_pending(scene.id, chased.state, rng)
        turns += 1
        turn = state.turn(acting.id)
        if turn is not None and not turn.lost:
            distance = nearest_opponent_distance(state, RUNNER) or 0
            if acting.id == RUNNER and distance >= 4:
                command: object = Flee(RUNNER)
                fled += 1
            else:
                command = ChangePosition(acting.id, +1)
            out = await swade.chase_command(scene.id, command, actor_id=owner, rng=rng)  # type: ignore[arg-type]
            state = await resolve_pending(scene.id, out.state, rng)
        if state.ended is not None:
            break

    assert state.ended is not None and state.ended.reason == "escaped", state
    assert state.ended.side == "quarry" and fled >= 1 and turns >= 3
    current = await swade.current_chase(scene.id)
    assert current is not None and current.state == state
    assert await agg.load(swade.CHASE, scene.id, "chase:1", rebuild=True) == (
        state,
        current.seq,
    )
    steps = await agg.history(scene.id, "chase:1")
    assert {s.actor_id for s in steps} == {GM, ALICE}
    kinds = {e["type"] for s in steps for e in s.events}
    assert {"flee_rolled", "complication_rolled", "moved"} <= kinds
    with pytest.raises(ChaseError) as err:
        await gm(scene.id, StartRound(), rng)
    assert err.value.code == "chase_over"


async def test_a_group_of_extras_takes_its_chase_turns_on_its_one_card(
    scene: services.GameInfo,
) -> None:
    rng = random.Random(7)
    await swade.save_character(scene.id, "Пустой (×2) Атлетика d6", actor_id=GM)
    await swade.add_to_encounter(scene.id, "Пустой", actor_id=GM, rng=rng)
    await set_up(scene.id, rng)
    for pid in ("pustoy-1", "pustoy-2"):  # on foot, each member moves alone (seed 001, line 8)
        await gm(scene.id, AddParticipant(pid, "pursuers", 1, die=6, wild_card=False), rng)
    encounter = (await swade.encounter_command(scene.id, NextTurn(), actor_id=GM, rng=rng)).state
    while encounter.current != "pustoy":  # each turn opens its chase turns too
        encounter = (
            await swade.encounter_command(scene.id, NextTurn(), actor_id=GM, rng=rng)
        ).state
    card = encounter.combatant("pustoy").card
    out = await swade.current_chase(scene.id)
    assert out is not None
    assert [(t.participant, t.action_card) for t in out.state.turns] == [
        ("pustoy-1", card),
        ("pustoy-2", card),
    ]
    last = (await agg.history(scene.id, "chase:1"))[-1]  # both turns: one undoable step
    assert [e["type"] for e in last.events].count("turn_started") == 2


# --- the fight character's Wounds and Fatigue -----------------------------------------------


async def fight(game_id: int, command: object, rng: random.Random) -> swade.EncounterOutcome:
    """A GM fight step (the chase follows it in the same step)."""
    return await swade.encounter_command(game_id, command, actor_id=GM, rng=rng)  # type: ignore[arg-type]


async def runner(game_id: int) -> Participant:
    view = await swade.current_chase(game_id)
    assert view is not None
    return view.state.participant(RUNNER)


async def test_a_wound_in_the_fight_weighs_on_the_next_maneuvering_roll(
    scene: services.GameInfo,
) -> None:
    """Seed 000 line 3 (Wounds follow standard SWADE) and line 73: «Каждая Рана даёт −1 к …
    проверкам параметров, максимум −3». The fight character is the one source of the
    participant's health (docs/rules/chase.md «Wounds and Fatigue»)."""
    rng = random.Random(8)
    await set_up(scene.id, rng)
    await fight(scene.id, ApplyDamage(RUNNER, amount=12), rng)  # Toughness 8: one Wound waits
    assert (await runner(scene.id)).wounds == 0  # not before Ichigo takes it (seed 000, 117)
    before = await swade.current_chase(scene.id)
    taken = await fight(scene.id, AcceptDamage(RUNNER), rng)
    assert (await runner(scene.id)).wounds == 1
    last = (await agg.history(scene.id, "chase:1"))[-1]  # the GM's bookkeeping, caused
    assert last.actor_id == GM and last.cause == {"stream": taken.stream, "step": taken.step_id}
    assert [e["type"] for e in last.events] == ["health_set"]

    # Undoing the fight step takes the chase's copy back with it.
    undone = await swade.undo_encounter(scene.id, actor_id=GM)
    assert undone.caused_undone == 1
    assert (await swade.current_chase(scene.id)).state == before.state  # type: ignore[union-attr]

    await fight(scene.id, AcceptDamage(RUNNER), rng)
    await gm(scene.id, StartTurn(RUNNER, Card.parse("KS")), rng)
    moved = await swade.chase_command(
        scene.id, ChangePosition(RUNNER, 1), actor_id=ALICE, rng=ScriptedRng([5, 3])
    )
    (rolled,) = [e for e in moved.events if isinstance(e, PositionChangeRolled)]
    assert rolled.roll.modifiers == (("wounds", -1),) and rolled.roll.total == 4


async def test_critical_failure_fatigue_reaches_the_fight_character_once(
    scene: services.GameInfo,
) -> None:
    """Seed 001 line 30: «пеший персонаж может … получить Усталость»; seed 000 line 79: −1
    per level. Ichigo in the chase is Ichigo in the fight: he gains the level there, and the
    chase's count stays equal to the fight's (no double counting)."""
    rng = random.Random(9)
    await set_up(scene.id, rng)
    await gm(scene.id, StartTurn(RUNNER, Card.parse("KS")), rng)
    moved = await swade.chase_command(
        scene.id, ChangePosition(RUNNER, 1), actor_id=ALICE, rng=ScriptedRng([1, 1])
    )
    (pending,) = moved.state.pending
    resolved = await gm(scene.id, ResolveCriticalFailure(pending.id, "fatigue"), rng)
    assert resolved.state.participant(RUNNER).fatigue == 1

    tired = resolved.followed_in("encounter")  # the fight's step, stored with the chase's
    assert tired is not None
    assert tired.state.character(RUNNER).status.fatigue == 1
    fight_view = await swade.current_encounter(scene.id)
    assert fight_view is not None and fight_view.state == tired.state
    assert resolved.followed_in("chase") is None  # equal: the sync wrote nothing
    assert (await runner(scene.id)).fatigue == 1
    steps = await agg.history(scene.id, "chase:1")
    assert steps[-1].step == resolved.step_id

    # The next fight step changes nothing either; the next roll carries −1 once.
    await fight(scene.id, NextTurn(), rng)
    assert (await runner(scene.id)).fatigue == 1
    # Other choices, and participants with no fight character, leave the fight alone.
    assert moved.followed == ()


async def test_a_participant_added_wounded_and_one_out_of_the_fight(
    scene: services.GameInfo,
) -> None:
    """A participant added with a fight character's id takes its Wounds and Fatigue in the
    same step; a character Incapacitated in the fight is out of the chase, which ends when
    its side is empty (seed 001, line 47: «преследователи выведены из строя»)."""
    rng = random.Random(10)
    await swade.encounter_command(
        scene.id, SetStatus(HUNTER, (("wounds", 2), ("fatigue", 1))), actor_id=GM, rng=rng
    )
    await swade.start_chase(scene.id, actor_id=GM, rng=rng)
    added = await gm(scene.id, AddParticipant(HUNTER, "pursuers", 0, die=10), rng)
    hunter = added.state.participant(HUNTER)
    assert (hunter.wounds, hunter.fatigue) == (2, 1)
    assert [type(e).__name__ for e in added.events] == ["ParticipantAdded", "HealthSet"]
    await gm(scene.id, AddParticipant(RUNNER, "quarry", 6, die=8), rng)
    await gm(scene.id, StartRound(), rng)

    out = await fight(scene.id, SetStatus(HUNTER, (("incapacitated", 1),)), rng)
    state = (await swade.current_chase(scene.id)).state  # type: ignore[union-attr]
    assert state.participant(HUNTER).status == "out_of_action"
    assert state.ended is not None and state.ended.reason == "out_of_action"
    assert state.ended.side == "pursuers"
    undone = await swade.undo_encounter(scene.id, actor_id=GM)
    assert undone.caused_undone == 1 and out.step_id == undone.undone_step
    assert (await swade.current_chase(scene.id)).state.participant(HUNTER).active  # type: ignore[union-attr]


async def _runners_turn(game_id: int, rng: random.Random) -> None:
    for _ in range(4):
        out = await fight(game_id, NextTurn(), rng)
        if out.state.current == RUNNER:
            return
    raise AssertionError("Ichigo never got a turn")


async def test_fight_and_chase_actions_are_one_turns_count(scene: services.GameInfo) -> None:
    """Seed 000, «Несколько действий»: «Персонаж может заявить до трёх действий в свой ход»
    — one turn of one character, in the fight and in the chase alike; seed 001, line 15:
    Change Position as an action «учитывается как действие при штрафе за несколько
    действий»."""
    rng = random.Random(3)
    await set_up(scene.id, rng, runner_at=8)
    await _runners_turn(scene.id, rng)
    attack = Attack(RUNNER, HUNTER, damage="d4")
    await swade.encounter_command(scene.id, attack, actor_id=ALICE, rng=rng)
    chase_turn = (await swade.current_chase(scene.id)).state.turn(RUNNER)  # type: ignore[union-attr]
    assert chase_turn is not None and chase_turn.fight_actions == 1
    with pytest.raises(ChaseError) as err:
        move = ChangePosition(RUNNER, -1, as_action=True)
        await swade.chase_command(scene.id, move, actor_id=ALICE, rng=rng)
    assert err.value.code == "too_many_actions"

    # The other way: a chase action first, then the fight refuses a second one undeclared.
    await fight(scene.id, NextTurn(), rng)
    await _runners_turn(scene.id, rng)
    move = ChangePosition(RUNNER, -1, as_action=True)
    moved = await swade.chase_command(scene.id, move, actor_id=ALICE, rng=rng)
    counted = moved.followed_in("encounter")
    assert counted is not None and counted.state.character(RUNNER).status.chase_actions == 1
    with pytest.raises(RuleError) as refused:
        await swade.encounter_command(scene.id, attack, actor_id=ALICE, rng=rng)
    assert refused.value.code == "too_many_actions"
    # Undoing the chase action gives the fight its action back.
    undone = await swade.undo_chase(scene.id, actor_id=GM)
    assert undone.caused_undone == 1
    fight_view = await swade.current_encounter(scene.id)
    assert fight_view is not None and fight_view.state.character(RUNNER).status.chase_actions == 0
    await swade.encounter_command(scene.id, attack, actor_id=ALICE, rng=rng)


async def test_a_fighter_removed_from_the_fight_leaves_the_chase(scene: services.GameInfo) -> None:
    """A participant is its fight character (docs/rules/chase.md «Wounds and Fatigue»): the
    GM's `/remove` takes it out of the chase as well, so the row never shows a participant
    with no character — and no name — behind it."""
    rng = random.Random(4)
    await set_up(scene.id, rng)
    out = await fight(scene.id, RemoveCombatant(HUNTER), rng)
    followed = out.followed_in("chase")
    assert followed is not None and followed.state.participant(HUNTER).status == "out_of_action"
    assert followed.state.ended is not None  # the pursuers are gone (seed 001, line 47)
    undone = await swade.undo_encounter(scene.id, actor_id=GM)
    assert undone.caused_undone == 1
    assert (await swade.current_chase(scene.id)).state.participant(HUNTER).active  # type: ignore[union-attr]


async def test_a_free_modifier_on_a_maneuver_is_the_gms(scene: services.GameInfo) -> None:
    """Who may set what (docs/rules/savage.md): a player's Change Position or Flee carries
    no free modifier; the GM's does (seed 001 line 17: no universal bonus)."""
    rng = random.Random(3)
    await set_up(scene.id, rng)
    await gm(scene.id, StartTurn(RUNNER, Card.parse("KS")), rng)
    for command in (ChangePosition(RUNNER, +1, modifier=20), Flee(RUNNER, modifier=2)):
        with pytest.raises(ChaseError) as err:
            await swade.chase_command(scene.id, command, actor_id=ALICE, rng=rng)
        assert err.value.code == "gm_sets_modifier"
    with pytest.raises(services.NotYourCharacter):  # another's: that refusal comes first
        await swade.chase_command(scene.id, Flee(HUNTER, modifier=2), actor_id=ALICE, rng=rng)
    moved = await gm(scene.id, ChangePosition(RUNNER, +1, modifier=2), rng)
    (rolled,) = [e for e in moved.events if isinstance(e, PositionChangeRolled)]
    assert ("modifier", 2) in rolled.roll.modifiers
