"""SWADE encounters through the service layer: roles, persistence, restart, races, undo.

A "twin" runs the same commands through the pure engine with an rng of the same seed: the
service must end on exactly the state the engine alone reaches.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random

import pytest

from engine import savage, services
from engine.savage import (
    AcceptDamage,
    ApplyDamage,
    Attack,
    DealRound,
    Encounter,
    NextTurn,
    RuleError,
    Soak,
)
from engine.services import aggregates as agg
from engine.services import savage as swade
from engine.services.savage.aggregates import ENCOUNTER
from engine.store.db import close_db, init_db
from tests.engine.services.conftest import ALICE, BOB, CAROL, CHAT, GM

ICHIGO = (
    "Ичиго (Дикий) Ловкость d8, Смекалка d6, Дух d8, Сила d10, Выносливость d8; "
    "Драка d10, Атлетика d8; Защита 7, Стойкость 8 (2); Бенни 3; Черты: Хладнокровие"
)
RUKIA = (
    "Рукия (Дикая) Ловкость d8, Смекалка d8, Дух d8, Сила d6, Выносливость d6; "
    "Драка d8, Стрельба d8, Атлетика d8; Защита 6, Стойкость 5; Бенни 2; Черты: Быстрая"
)
GRIMMJOW = (
    "Гриммджо (Дикий) Ловкость d10, Смекалка d6, Дух d8, Сила d12, Выносливость d10; "
    "Драка d12, Атлетика d10; Защита 8, Стойкость 9 (1); Бенни 1"
)
HOLLOWS = "Пустой (Статист, ×3) Дух d4, Сила d8; Драка d6; Защита 5, Стойкость 7; Черты: Стойкий"


@pytest.fixture
async def party(game: services.GameInfo) -> services.GameInfo:
    """Alice and Bob play Ichigo and Rukia; Carol is not in the game."""
    await services.join_game(game.id, ALICE)
    await services.join_game(game.id, BOB)
    await swade.save_character(game.id, ICHIGO, actor_id=ALICE)
    await swade.save_character(game.id, RUKIA, actor_id=BOB)
    await swade.save_character(game.id, GRIMMJOW, actor_id=GM)
    await swade.save_character(game.id, HOLLOWS, actor_id=GM)
    return game


class Twin:
    """The pure engine beside the service: same commands, same `by`, an rng of the same
    seed. Commands refused by the rules must be refused by both."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.state = Encounter()

    def run(self, command: savage.Command, by: int | None) -> tuple[savage.Event, ...]:
        events = savage.decide(self.state, dataclasses.replace(command, by=by), self.rng)  # type: ignore[call-arg]
        self.state = savage.replay(events, self.state)
        return events


async def add_cast(game_id: int, rng: random.Random, twin: Twin | None = None) -> Encounter:
    state = Encounter()
    for name in ("Ичиго", "Рукия", "Гриммджо", "Пустой"):
        out = await swade.add_to_encounter(game_id, name, actor_id=GM, rng=rng)
        if twin is not None:
            assert twin.run(savage_add(out), None) == out.events
        state = out.state
    return state


def savage_add(out: swade.EncounterOutcome) -> savage.AddCombatant:
    """The AddCombatant the service decided (read back from its event)."""
    (added,) = out.events
    combatant = added.combatant  # type: ignore[attr-defined]
    return savage.AddCombatant(combatant.id, combatant.name, combatant.members)


def by_of(character: savage.Character) -> int:
    return character.owner if character.owner is not None else GM


async def command(
    game_id: int, cmd: savage.Command, actor: int, rng: random.Random, twin: Twin
) -> str | None:
    """Run `cmd` through the service and the twin; the rule error code if refused."""
    by = None if actor == GM else actor
    try:
        expected = twin.run(cmd, by)
    except RuleError as exc:
        with pytest.raises(RuleError) as err:
            await swade.encounter_command(game_id, cmd, actor_id=actor, rng=rng)
        assert err.value.code == exc.code
        return exc.code
    out = await swade.encounter_command(game_id, cmd, actor_id=actor, rng=rng)
    assert out.events == expected and out.state == twin.state
    return None


async def settle_damage(game_id: int, rng: random.Random, twin: Twin) -> None:
    """Answer damage waiting for a Soak: the owner soaks once if they can, else accepts."""
    while twin.state.pending is not None:
        target = twin.state.character(twin.state.pending.character)
        actor = by_of(target)
        soak = target.bennies > 0 and twin.state.pending.attempts == 0
        cmd = Soak(target.id) if soak else AcceptDamage(target.id)
        assert await command(game_id, cmd, actor, rng, twin) is None


async def play_turns(game_id: int, turns: int, rng: random.Random, twin: Twin) -> list[str]:
    """GM deals/advances; each acting fighter attacks the first foe still standing (heroes
    are the players' characters), sent by its owner (the player, or the GM for NPCs).
    Returns the codes of the attacks the rules refused."""
    refused: list[str] = []
    for _ in range(turns):
        assert await command(game_id, NextTurn(), GM, rng, twin) is None
        await settle_damage(game_id, rng, twin)
        acting = twin.state.acting
        if acting is None:
            continue
        for member in acting.active_members[:2]:
            foes = [
                c
                for c in twin.state.characters
                if (c.owner is None) != (member.owner is None) and not c.status.out
            ]
            if not foes:
                return refused
            cmd = Attack(member.id, foes[0].id, damage="str+d6")
            code = await command(game_id, cmd, by_of(member), rng, twin)
            if code is not None:
                refused.append(code)
            await settle_damage(game_id, rng, twin)
    return refused


# --- the aggregate --------------------------------------------------------------------------


def test_the_aggregate_stores_the_engines_format_both_ways() -> None:
    twin = Twin(5)
    for text, cid in ((ICHIGO, "ichigo"), (GRIMMJOW, "grimmjow")):
        character = dataclasses.replace(savage.parse_sheet(text).character, id=cid)
        twin.run(savage.AddCombatant(cid, cid, (character,)), None)
    events = twin.run(NextTurn(), None)
    attacker = twin.state.current or ""
    events += twin.run(Attack(attacker, ({"ichigo", "grimmjow"} - {attacker}).pop()), None)
    state = twin.state
    assert ENCOUNTER.state_to_dict(state) == state.to_dict()
    assert ENCOUNTER.state_to_json is not None  # the snapshot's text, in one pass
    assert json.loads(ENCOUNTER.state_to_json(state)) == state.to_dict()
    data = state.to_dict()
    assert ENCOUNTER.state_from_dict(data) == state == Encounter.from_dict(data)
    for e in events:
        assert ENCOUNTER.event_to_dict(e) == e.to_dict()
        assert ENCOUNTER.event_from_dict(e.to_dict()) == e
        assert savage.event_from_dict(ENCOUNTER.event_to_dict(e)) == e


# --- a fight through the service ------------------------------------------------------------


async def test_a_fight_through_the_service_equals_the_pure_engine(
    party: services.GameInfo,
) -> None:
    started = await swade.start_encounter(party.id, actor_id=GM)
    assert (started.stream, started.seq, started.state) == ("encounter:1", 0, Encounter())
    rng, twin = random.Random(3), Twin(3)
    await add_cast(party.id, rng, twin)
    assert twin.state.combatant("pustoy").group
    refused = await play_turns(party.id, 20, rng, twin)

    state = twin.state
    current = await swade.current_encounter(party.id)
    assert current is not None and current.state == state and not current.closed
    assert await agg.load(swade.ENCOUNTER, party.id, "encounter:1", rebuild=True) == (
        state,
        current.seq,
    )
    steps = await agg.history(party.id, "encounter:1")
    assert len(steps) > 50 and all(s.kind == "command" for s in steps)
    assert {s.actor_id for s in steps} == {GM, ALICE, BOB}  # players acted for themselves
    # Seed 3 is a full fight: a Joker forces a reshuffle, Soaks, a failed Spirit roll,
    # Grimmjow and a Hollow Incapacitated.
    logged = [e for s in steps for e in s.events]
    assert state.round == 6
    assert {"joker"} <= {e["reason"] for e in logged if e["type"] == "DeckShuffled"}
    assert {"DamageSoaked", "FreeActionsOnly", "Incapacitated"} <= {e["type"] for e in logged}
    assert state.character("grimmdzho").status.out and state.character("pustoy-1").status.out
    assert set(refused) <= {"shaken_free_actions_only", "incapacitated", "stunned", "dead"}


async def test_a_restart_in_the_middle_of_a_round_loses_nothing(db_url: str) -> None:
    rng, twin = random.Random(23), Twin(23)
    ctx = await init_db(db_url)
    try:
        for uid, name in ((GM, "Мастер"), (ALICE, "Алиса"), (BOB, "Боб")):
            await services.touch_user(uid, name)
        game = await services.create_game(
            chat_id=CHAT, topic_id=None, system="savage", name="g", creator_id=GM
        )
        await services.join_game(game.id, ALICE)
        await services.join_game(game.id, BOB)
        for text, owner in ((ICHIGO, ALICE), (RUKIA, BOB), (GRIMMJOW, GM), (HOLLOWS, GM)):
            await swade.save_character(game.id, text, actor_id=owner)
        await swade.start_encounter(game.id, actor_id=GM)
        await add_cast(game.id, rng, twin)
        await play_turns(game.id, 2, rng, twin)  # round 1, two turns in
        before = await swade.current_encounter(game.id)
        assert before is not None and before.state == twin.state
        assert before.state.round == 1 and before.state.waiting()
    finally:
        await close_db(ctx)

    ctx = await init_db(db_url)  # a new process: nothing in memory survives
    try:
        after = await swade.current_encounter(game.id)
        assert after == before
        await play_turns(game.id, 6, rng, twin)  # and the fight goes on from there
        current = await swade.current_encounter(game.id)
        assert current is not None and current.state == twin.state and current.state.round >= 2
    finally:
        await close_db(ctx)


# --- roles ----------------------------------------------------------------------------------


async def test_players_act_only_for_their_own_characters(party: services.GameInfo) -> None:
    await swade.start_encounter(party.id, actor_id=GM)
    rng = random.Random(1)
    await add_cast(party.id, rng)
    await swade.encounter_command(party.id, DealRound(), actor_id=GM, rng=rng)
    with pytest.raises(RuleError) as err:  # Bob plays Rukia, not Ichigo
        await swade.encounter_command(
            party.id, savage.DeclareActions("ichigo", 2), actor_id=BOB, rng=rng
        )
    assert err.value.code == "not_your_character"
    with pytest.raises(RuleError) as err:  # a player cannot send GM commands
        await swade.encounter_command(party.id, DealRound(), actor_id=ALICE, rng=rng)
    assert err.value.code == "gm_only"
    with pytest.raises(RuleError) as err:  # the by= a player puts in is overwritten
        await swade.encounter_command(
            party.id, ApplyDamage("rukia", amount=20, by=None), actor_id=ALICE, rng=rng
        )
    assert err.value.code == "gm_only"
    steps = await agg.history(party.id, "encounter:1")
    assert len(steps) == 5  # four adds and the deal: nothing refused was written


async def test_non_members_are_refused(party: services.GameInfo) -> None:
    await swade.start_encounter(party.id, actor_id=GM)
    rng = random.Random(1)
    with pytest.raises(services.NotMember):
        await swade.encounter_command(party.id, DealRound(), actor_id=CAROL, rng=rng)
    with pytest.raises(services.NotMember):
        await swade.add_to_encounter(party.id, "Пустой", actor_id=CAROL, rng=rng)
    with pytest.raises(services.NotMember):
        await swade.undo_encounter(party.id, actor_id=CAROL)
    with pytest.raises(services.NotMember):
        await swade.start_encounter(party.id, actor_id=CAROL)
    with pytest.raises(services.NoGame):
        await swade.encounter_command(404, DealRound(), actor_id=GM, rng=rng)


async def test_start_and_end_are_for_the_gm_of_a_savage_game(
    party: services.GameInfo,
) -> None:
    with pytest.raises(services.NotGm):
        await swade.start_encounter(party.id, actor_id=ALICE)
    with pytest.raises(swade.NoEncounter):
        await swade.encounter_command(party.id, DealRound(), actor_id=GM, rng=random.Random())
    assert await swade.current_encounter(party.id) is None
    first = await swade.start_encounter(party.id, actor_id=GM)
    with pytest.raises(swade.EncounterActive) as err:
        await swade.start_encounter(party.id, actor_id=GM)
    assert err.value.params["stream"] == first.stream
    with pytest.raises(services.NotGm):
        await swade.end_encounter(party.id, actor_id=BOB)
    ended = await swade.end_encounter(party.id, actor_id=GM)
    assert ended.closed and ended.stream == "encounter:1"
    assert await swade.current_encounter(party.id) is None
    with pytest.raises(swade.NoEncounter):
        await swade.end_encounter(party.id, actor_id=GM)
    second = await swade.start_encounter(party.id, actor_id=GM)
    assert second.stream == "encounter:2"

    await services.touch_user(CAROL, "Carol")
    other = await services.create_game(
        chat_id=CHAT - 1, topic_id=None, system="storyteller", name="WoD", creator_id=CAROL
    )
    with pytest.raises(services.WrongSystem) as err:
        await swade.start_encounter(other.id, actor_id=CAROL)
    assert err.value.code == "wrong_system"


async def test_two_simultaneous_starts_open_one_encounter(party: services.GameInfo) -> None:
    results = await asyncio.gather(
        *(swade.start_encounter(party.id, actor_id=GM) for _ in range(3)),
        return_exceptions=True,
    )
    opened = [r for r in results if isinstance(r, services.SceneView)]
    assert len(opened) == 1
    assert all(isinstance(r, swade.EncounterActive) for r in results if r not in opened)
    assert [s.key for s in await agg.list_streams(party.id, "encounter")] == ["encounter:1"]


# --- undo -----------------------------------------------------------------------------------


async def test_undo_is_for_the_gm(party: services.GameInfo) -> None:
    await swade.start_encounter(party.id, actor_id=GM)
    rng = random.Random(3)
    await add_cast(party.id, rng)
    before = await swade.current_encounter(party.id)
    dealt = await swade.encounter_command(party.id, NextTurn(), actor_id=GM, rng=rng)
    assert dealt.state.round == 1 and dealt.step_id == 5
    with pytest.raises(services.NotGm):
        await swade.undo_encounter(party.id, actor_id=ALICE)
    with pytest.raises(services.EventConflict):  # the GM saw step 4 as last: stale click
        await swade.undo_encounter(party.id, actor_id=GM, expected_step=4)
    undone = await swade.undo_encounter(party.id, actor_id=GM, expected_step=5)
    assert before is not None and undone.state == before.state
    assert undone.undone_step == 5 and undone.undone_events == dealt.events
    after = await swade.current_encounter(party.id)
    assert after is not None and after.state == before.state
    # Dealing again draws anew: the undone shuffle is never re-applied.
    again = await swade.encounter_command(party.id, NextTurn(), actor_id=GM, rng=rng)
    assert again.state.round == 1 and again.step_id == 7


# --- races ----------------------------------------------------------------------------------


async def test_racing_commands_apply_in_sequence_never_on_a_stale_state(
    party: services.GameInfo,
) -> None:
    await swade.start_encounter(party.id, actor_id=GM)
    rng = random.Random(8)
    await add_cast(party.id, rng)
    # Two "next" clicks at once: both apply, the second on the state the first left.
    outs = await asyncio.gather(
        *(swade.encounter_command(party.id, NextTurn(), actor_id=GM, rng=rng) for _ in "ab")
    )
    assert sorted(o.step_id for o in outs) == [5, 6]
    first, second = sorted(outs, key=lambda o: o.step_id or 0)
    assert first.state.round == 1 and second.state.round == 1
    assert second.state.current != first.state.current  # the turn moved on twice
    state, _ = await agg.load(swade.ENCOUNTER, party.id, "encounter:1", rebuild=True)
    assert state == second.state

    # Damage waits for Ichigo's Soak decision; Alice and the GM both answer at once:
    # exactly one answer applies, the other is refused by the rules on the fresh state.
    hit = await swade.encounter_command(
        party.id, ApplyDamage("ichigo", amount=17), actor_id=GM, rng=rng
    )
    assert hit.state.pending is not None and hit.state.pending.wounds == 2
    results = await asyncio.gather(
        swade.encounter_command(party.id, AcceptDamage("ichigo"), actor_id=ALICE, rng=rng),
        swade.encounter_command(party.id, AcceptDamage("ichigo"), actor_id=GM, rng=rng),
        return_exceptions=True,
    )
    applied = [r for r in results if isinstance(r, services.CommandOutcome)]
    refused = [r for r in results if isinstance(r, RuleError)]
    assert len(applied) == 1 and len(refused) == 1, results
    assert refused[0].code == "no_damage_pending"
    assert applied[0].state.character("ichigo").status.wounds == 2
    final = await swade.current_encounter(party.id)
    assert final is not None and final.state == applied[0].state


# --- the board message ----------------------------------------------------------------------


async def test_board_message_belongs_to_the_active_encounter(party: services.GameInfo) -> None:
    with pytest.raises(swade.NoEncounter):
        await services.set_board_message(party.id, "encounter", 10)
    await swade.start_encounter(party.id, actor_id=GM)
    assert await services.board_message(party.id, "encounter") is None
    await services.set_board_message(party.id, "encounter", 10)
    await services.set_board_message(party.id, "encounter", 11)  # re-sent: replaced
    assert await services.board_message(party.id, "encounter") == 11
    current = await swade.current_encounter(party.id)
    assert current is not None and current.board_message_id == 11
    assert await services.board_message(party.id, "chase") is None
    with pytest.raises(services.UnknownScene):  # no installed system has such scenes
        await services.board_message(party.id, "nonesuch")
    await swade.end_encounter(party.id, actor_id=GM)
    assert await services.board_message(party.id, "encounter") is None
    await swade.start_encounter(party.id, actor_id=GM)
    assert await services.board_message(party.id, "encounter") is None  # a new message
