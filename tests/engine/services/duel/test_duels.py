"""The duel's use cases over the store: fighters and classes per game, duels per topic,
sealed submissions, the GM's changes, one publication per turn, undo."""

from __future__ import annotations

import random

import pytest

from engine import duel, services
from engine.dice.rng import ScriptedRng
from engine.duel.actions import Attack, Block
from engine.receipt import verify
from engine.services import aggregates as agg
from engine.services import duel as duels
from engine.services.errors import NotGm, NotYourCharacter, WrongSystem
from tests.engine.duel.six_turns import TURNS, use_the_scripts_readings
from tests.engine.services.conftest import ALICE, BOB, CAROL, GM

from .conftest import TOPIC

RNG = random.Random(3)


async def test_fighters_are_saved_per_game_as_text_or_json(duel_game) -> None:
    listed = await duels.list_fighters(duel_game.id)
    assert [(f.name, f.owner_id) for f in listed] == [("Бьорн", ALICE), ("Такеда", BOB)]
    bjorn = listed[0]
    assert bjorn.fighter.fighter_class.code == "raider"
    assert "Атака 2, Блок 1, Уклонение 0, Урон d8, ХП 24, Броня 1" in bjorn.sheet
    # a player replaces their own fighter from the editor's JSON, not another's
    changed = duel.Fighter("Бьорн", duel.Stats(3, 1, 0, 8, 24, 1), duel.RAIDER)
    saved, warnings = await duels.save_fighter(duel_game.id, changed.to_dict(), actor_id=ALICE)
    assert saved.id == bjorn.id and saved.fighter.stats.attack == 3 and warnings == ()
    with pytest.raises(NotYourCharacter):
        await duels.save_fighter(duel_game.id, changed.to_dict(), actor_id=BOB)
    with pytest.raises(NotYourCharacter):
        await duels.delete_fighter(duel_game.id, "Бьорн", actor_id=BOB)
    _, warnings = await duels.save_fighter(
        duel_game.id, "Ронин\nАтака 1, Блок 1, Уклонение 1, Урон d6, Хп 12\nбез брони", actor_id=GM
    )
    # «без брони» is not read, and Броня not given counts as 0: both said (issue 26)
    assert [w.code for w in warnings] == ["duel_sheet.unknown_line", "duel_sheet.not_given"]


async def test_the_gm_defines_a_class_the_sheets_then_name(duel_game) -> None:
    ronin = duel.FighterClass(
        "ronin", "Ронин", moves=(duel.Move("attack", "Атака"), duel.Move("iai", "Иай", sp=3))
    )
    with pytest.raises(NotGm):
        await duels.save_class(duel_game.id, ronin.to_dict(), actor_id=ALICE)
    await duels.save_class(duel_game.id, ronin.to_dict(), actor_id=GM)
    await services.join_game(duel_game.id, CAROL)
    record, _ = await duels.save_fighter(
        duel_game.id, "Кэн\nКласс: Ронин\nАтака 1, Урон d6, Хп 10", actor_id=CAROL
    )
    assert record.fighter.fighter_class == ronin and record.owner_id == CAROL
    assert "ronin" in await duels.game_classes(duel_game.id)
    # classes are no fighters
    assert "Ронин" not in [f.name for f in await duels.list_fighters(duel_game.id)]


async def test_the_six_turns_with_sealed_receipts_and_one_publication_each(duel_game) -> None:
    with pytest.raises(NotGm):
        await duels.start_duel(
            duel_game.id, thread=TOPIC, a="Бьорн", b="Такеда", actor_id=ALICE, rng=RNG
        )
    await use_the_scripts_readings(duel_game.id, GM)
    # scripted dice below: a source of faces only commits no turn seed (test_dice_seed.py)
    out = await duels.start_duel(
        duel_game.id, thread=TOPIC, a="Бьорн", b="Такеда", actor_id=GM, rng=ScriptedRng([])
    )
    assert out.stream == f"duel:{TOPIC}:1"
    assert [f.owner for f in out.state.fighters] == [ALICE, BOB]
    with pytest.raises(duels.DuelActive):
        await duels.start_duel(
            duel_game.id, thread=TOPIC, a="Бьорн", b="Такеда", actor_id=GM, rng=RNG
        )
    receipts: list[str] = []
    for n, (a, fa, b, fb) in enumerate(TURNS, start=1):
        with pytest.raises(duel.DuelError) as refused:  # not her fighter
            await duels.submit_turn(
                duel_game.id, TOPIC, fighter="b", actions=b, turn=n, actor_id=ALICE, rng=RNG
            )
        assert refused.value.code == "not_your_fighter"
        first = await duels.submit_turn(
            duel_game.id, TOPIC, fighter="a", actions=a, turn=n, actor_id=ALICE, rng=ScriptedRng(fa)
        )
        (event,) = first.events
        assert isinstance(event, duel.Submitted)
        receipts.append(event.sealed.receipt)
        second = await duels.submit_turn(
            duel_game.id, TOPIC, fighter="b", actions=b, turn=n, actor_id=BOB, rng=ScriptedRng(fb)
        )
        receipts.append(second.events[0].sealed.receipt)
        published = await duels.publish_turn(
            duel_game.id, TOPIC, turn=n, actor_id=GM, rng=ScriptedRng([])
        )
        assert isinstance(published.events[0], duel.TurnPublished)
        with pytest.raises(duel.DuelError) as refused:  # a second tap: published once
            await duels.publish_turn(duel_game.id, TOPIC, turn=n, actor_id=GM, rng=RNG)
        assert refused.value.code == "wrong_turn"
    view = await duels.current_duel(duel_game.id, TOPIC)
    assert view is not None and view.state.over and view.state.fighter("b").dead
    revealed = [r for p in view.state.history for r in p.reveals]
    assert [r.receipt for r in revealed] == receipts
    subs = [s for p in view.state.history for s in p.proposal.submissions]
    assert all(
        verify(r.receipt, s.committed(), r.salt) for r, s in zip(revealed, subs, strict=True)
    )
    assert await agg.load(duels.DUEL, duel_game.id, view.stream, rebuild=True) == (
        view.state,
        view.seq,
    )
    # the topic's duel is over: a new one starts beside it
    again = await duels.start_duel(
        duel_game.id, thread=TOPIC, a="Такеда", b="Бьорн", actor_id=GM, rng=RNG
    )
    assert again.stream == f"duel:{TOPIC}:2"


async def test_several_duels_in_one_game_one_per_topic(duel_game) -> None:
    for topic in (1, 2):
        await duels.start_duel(
            duel_game.id, thread=topic, a="Бьорн", b="Такеда", actor_id=GM, rng=RNG
        )
    await duels.submit_turn(
        duel_game.id, 1, fighter="a", actions=[Attack("left"), Block("left")], turn=1,
        actor_id=ALICE, rng=RNG,
    )  # fmt: skip
    one, two = await duels.open_duels(duel_game.id)
    assert (one.stream, two.stream) == ("duel:1:1", "duel:2:1")
    assert one.state.sealed("a") is not None and two.state.sealed("a") is None
    with pytest.raises(duels.NoDuel):
        await duels.publish_turn(duel_game.id, 3, turn=1, actor_id=GM, rng=RNG)
    # the undo is the scene service's, scoped by the topic too
    undone = await duels.undo_duel(duel_game.id, 1, actor_id=GM)
    assert undone.stream == "duel:1:1" and undone.state.sealed("a") is None
    with pytest.raises(duels.NoDuel):
        await duels.undo_duel(duel_game.id, 3, actor_id=GM)
    one, two = await duels.open_duels(duel_game.id)
    assert one.state.sealed("a") is None and two.seq == 1


async def test_the_gm_adjusts_publishes_and_undoes(duel_game) -> None:
    await duels.start_duel(duel_game.id, thread=TOPIC, a="Бьорн", b="Такеда", actor_id=GM, rng=RNG)
    a, fa, b, fb = TURNS[0]
    await duels.submit_turn(
        duel_game.id, TOPIC, fighter="a", actions=a, turn=1, actor_id=ALICE, rng=ScriptedRng(fa)
    )
    await duels.submit_turn(
        duel_game.id, TOPIC, fighter="b", actions=b, turn=1, actor_id=BOB, rng=ScriptedRng(fb)
    )
    with pytest.raises(duel.DuelError) as refused:
        await duels.adjust_turn(
            duel_game.id, TOPIC, turn=1, fighter="b", field="hp", value=1, reason="x",
            actor_id=BOB, rng=RNG,
        )  # fmt: skip
    assert refused.value.code == "gm_only"
    out = await duels.adjust_turn(
        duel_game.id, TOPIC, turn=1, fighter="b", field="hp", value=9, reason="рана глубже",
        actor_id=GM, rng=RNG,
    )  # fmt: skip
    assert duel.propose(out.state).after_of("b").hp == 9
    undone = await duels.undo_duel(duel_game.id, TOPIC, actor_id=GM)
    assert undone.state.adjustments == ()
    published = await duels.publish_turn(duel_game.id, TOPIC, turn=1, actor_id=GM, rng=RNG)
    assert published.state.turn == 2
    back = await duels.undo_duel(duel_game.id, TOPIC, actor_id=GM, expected_step=published.step_id)
    assert back.state.turn == 1 and len(back.state.pending) == 2


async def test_a_duel_needs_a_duel_game(game) -> None:
    with pytest.raises(WrongSystem):
        await duels.save_fighter(game.id, "Икс\nУрон d6, Хп 5", actor_id=GM)
