"""Storyteller fights through the service layer: the scripted fight of the engine's tests
replayed as stored steps (each attack a proposal the GM publishes), roles, the GM's
adjustment, undo, restart and the wrong system."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from engine import services
from engine.dice.rng import ScriptedRng
from engine.services import storyteller as st
from engine.services.errors import NotGm, NotMember, WrongSystem
from engine.services.storyteller.options import set_options
from engine.storyteller import commands as cmd
from engine.storyteller import events as ev
from engine.storyteller.combat import Overrides
from engine.storyteller.decide import preview
from engine.storyteller.errors import StorytellerError
from tests.engine.services.conftest import ALICE, BOB, CAROL, CHAT, GM
from tests.engine.storyteller import test_fight as scripted

PUNCHER = "Имя: Макс\nАтрибуты: Сила 3, Ловкость 3, Выносливость 2\nСпособности: Рукопашный бой 3\n"
THUG = "Имя: Бандит\nАтрибуты: Ловкость 2, Выносливость 2\nСпособности: Рукопашный бой 2\n"


@pytest.fixture
async def table(users: None) -> services.GameInfo:
    game = await services.create_game(
        chat_id=CHAT,
        topic_id=None,
        system="storyteller",
        name="Мир тьмы",
        creator_id=GM,
        chat_title="Ролевая",
        chat_type="supergroup",
    )
    await services.join_game(game.id, ALICE)
    await services.join_game(game.id, BOB)
    return game


class Recorder(scripted.Game):
    """The engine's scripted fight, keeping each command with the faces it drew."""

    def __init__(self) -> None:
        super().__init__()
        self.played: list[tuple[cmd.Command, list[int]]] = []

    def do(self, command: cmd.Command, *faces: list[int]) -> tuple[ev.Event, ...]:
        self.played.append((command, list(itertools.chain.from_iterable(faces))))
        return super().do(command, *faces)


async def test_the_scripted_fight_as_stored_steps(table: services.GameInfo) -> None:
    engine = Recorder()
    for fid, c, owner in (
        ("vera", scripted.VERA, ALICE),
        ("max", scripted.MAX, BOB),
        ("boss", scripted.BOSS, None),
        ("thug1", scripted.THUG1, None),
        ("thug2", scripted.THUG2, None),
        ("thug3", scripted.THUG3, None),
    ):
        engine.do(cmd.AddFighter(fid, c, owner))
    scripted.play(engine)

    # the story rolls initiative every turn (the game's option)
    await set_options(table.id, scripted.EVERY_TURN, actor_id=GM)
    await st.start_fight(table.id, actor_id=GM)
    published = 0
    for command, faces in engine.played:
        out = await st.fight_command(table.id, command, actor_id=GM, rng=ScriptedRng(faces))
        if isinstance(command, cmd.Attack):
            # «the GM in control»: the attack waits for the GM, the table sees no change yet
            assert isinstance(out.events[0], ev.AttackProposed) and out.state.proposal
            shown = preview(out.state)
            out = await st.fight_command(table.id, cmd.Publish(), actor_id=GM, rng=ScriptedRng([]))
            assert out.events[1:] == shown
            published += 1
    assert published == sum(isinstance(c, cmd.Attack) for c, _ in engine.played) == 11
    # the stored fight is the engine's, read back fresh from the database
    view = await st.current_fight(table.id)
    assert view is not None
    assert dataclasses.replace(view.state, step=0) == dataclasses.replace(engine.state, step=0)
    assert view.state.fighter("thug2").character.incapacitated()
    assert view.state.fighter("thug3").character.armor is None


async def _fight_of_two(table: services.GameInfo) -> None:
    await st.save_character(table.id, PUNCHER, actor_id=BOB)
    await st.save_character(table.id, THUG, actor_id=GM, template=True)
    await st.start_fight(table.id, actor_id=GM)
    await st.add_to_fight(table.id, "Макс", actor_id=GM, rng=ScriptedRng([]))
    await st.add_to_fight(table.id, "Бандит", actor_id=GM, count=2, rng=ScriptedRng([]))
    # Max 3+2+9=14, the thugs 2+2+2=6 and 2+2+1=5
    await st.fight_command(table.id, cmd.StartTurn(), actor_id=GM, rng=ScriptedRng([9, 2, 1]))


async def test_a_player_proposes_the_gm_adjusts_publishes_and_undoes(
    table: services.GameInfo,
) -> None:
    await _fight_of_two(table)
    view = await st.current_fight(table.id)
    assert view is not None
    assert [f.id for f in view.state.fighters] == ["maks", "bandit_1", "bandit_2"]
    assert [f.owner for f in view.state.fighters] == [BOB, None, None]
    punch = cmd.Attack("maks", "bandit_1")
    with pytest.raises(StorytellerError) as err:  # Alice does not play Max
        await st.fight_command(table.id, punch, actor_id=ALICE, rng=ScriptedRng([]))
    assert err.value.code == "not_your_character"
    faces = [8, 7, 3, 2, 1, 9, 6, 6, 2, 2, 3, 3]  # attack, damage, soak
    out = await st.fight_command(table.id, punch, actor_id=BOB, rng=ScriptedRng(faces))
    assert isinstance(out.events[0], ev.AttackProposed)
    with pytest.raises(StorytellerError) as err:
        await st.fight_command(table.id, cmd.Publish(), actor_id=BOB, rng=ScriptedRng([]))
    assert err.value.code == "gm_only"
    # the GM raises the difficulty to 8: the same dice, one success left
    out = await st.fight_command(
        table.id, cmd.Adjust(Overrides(difficulty=8)), actor_id=GM, rng=ScriptedRng([])
    )
    shown = next(e for e in preview(out.state) if isinstance(e, ev.AttackResolved))
    assert shown.attack.net == 1 and shown.hit and shown.damage is not None
    out = await st.fight_command(
        table.id, cmd.Publish(), actor_id=GM, rng=ScriptedRng([]), expected_seq=out.seq
    )
    hit = next(e for e in out.events if isinstance(e, ev.AttackResolved))
    assert hit == shown
    assert out.state.fighter("bandit_1").character.health == shown.damage.marks
    # a player cannot undo; the GM's undo brings the proposal back, a second drops it
    with pytest.raises(NotGm):
        await st.undo_fight(table.id, actor_id=BOB)
    undone = await st.undo_fight(table.id, actor_id=GM, expected_step=out.step_id)
    assert undone.state.proposal is not None
    assert undone.state.fighter("bandit_1").character.health == ()
    out = await st.fight_command(table.id, cmd.Drop(), actor_id=GM, rng=ScriptedRng([]))
    assert out.state.proposal is None and out.state.turn is not None
    assert not out.state.turn.done("maks")


async def test_without_review_an_attack_is_published_at_once(table: services.GameInfo) -> None:
    await _fight_of_two(table)
    view = await st.current_fight(table.id)
    assert view is not None
    options = dataclasses.replace(view.state.options, gm_review=False)
    await st.fight_command(table.id, cmd.Configure(options), actor_id=GM, rng=ScriptedRng([]))
    out = await st.fight_command(
        table.id,
        cmd.Attack("maks", "bandit_1"),
        actor_id=BOB,
        rng=ScriptedRng([2, 2, 2, 2, 2, 2]),
    )
    assert [type(e) for e in out.events] == [ev.AttackResolved, ev.Acted]


async def test_who_may_start_and_where(table: services.GameInfo, users: None) -> None:
    with pytest.raises(NotGm):
        await st.start_fight(table.id, actor_id=ALICE)
    with pytest.raises(st.NoFight):
        await st.fight_command(table.id, cmd.StartTurn(), actor_id=GM, rng=ScriptedRng([]))
    await st.start_fight(table.id, actor_id=GM)
    with pytest.raises(st.FightActive):
        await st.start_fight(table.id, actor_id=GM)
    with pytest.raises(NotMember):
        await st.fight_command(table.id, cmd.StartTurn(), actor_id=CAROL, rng=ScriptedRng([]))
    ended = await st.end_fight(table.id, actor_id=GM)
    assert ended.closed and await st.current_fight(table.id) is None
    savage = await services.create_game(
        chat_id=CHAT - 1,
        topic_id=None,
        system="savage",
        name="Bleach",
        creator_id=GM,
        chat_title="Другая",
        chat_type="supergroup",
    )
    with pytest.raises(WrongSystem):
        await st.start_fight(savage.id, actor_id=GM)
    with pytest.raises(WrongSystem):
        await st.save_character(savage.id, PUNCHER, actor_id=GM)
