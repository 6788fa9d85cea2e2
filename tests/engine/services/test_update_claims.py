"""An update's id is claimed in the transaction of its first step: the two commit together
or not at all (engine/services/updates.py)."""

from __future__ import annotations

import random

import pytest

from engine import services
from engine.savage import NextTurn
from engine.services import savage as swade
from engine.services import updates
from engine.services.aggregates import game_lock
from engine.store.models import ProcessedUpdate, RollLog
from tests.engine.services.conftest import ALICE, GM
from tests.engine.services.test_races import fight


async def test_a_step_and_its_claim_commit_together(game: services.GameInfo) -> None:
    await fight(game)
    with updates.claiming(901) as claim:
        dealt = await swade.encounter_command(
            game.id, NextTurn(), actor_id=GM, rng=random.Random(1)
        )
    assert claim.taken and await ProcessedUpdate.filter(update_id=901).exists()
    with updates.claiming(901), pytest.raises(updates.DuplicateUpdate):
        await swade.encounter_command(game.id, NextTurn(), actor_id=GM, rng=random.Random(2))
    view = await swade.current_encounter(game.id)
    assert view is not None and view.seq == dealt.seq  # the copy changed nothing


async def test_a_step_cut_off_inside_its_transaction_leaves_no_claim(
    game: services.GameInfo, monkeypatch: pytest.MonkeyPatch
) -> None:
    await fight(game)
    before = await swade.current_encounter(game.id)

    async def dies(*args: object) -> None:
        raise SystemExit("killed after the claim's INSERT")

    monkeypatch.setattr(game_lock, "lock_game", dies)  # runs right after the claim
    with updates.claiming(902) as claim, pytest.raises(SystemExit):
        await swade.encounter_command(game.id, NextTurn(), actor_id=GM, rng=random.Random(1))
    monkeypatch.undo()
    assert not claim.taken and not await ProcessedUpdate.filter(update_id=902).exists()
    with updates.claiming(902):  # the copy delivered after the restart
        dealt = await swade.encounter_command(
            game.id, NextTurn(), actor_id=GM, rng=random.Random(1)
        )
    assert before is not None and dealt.seq > before.seq


async def test_a_refused_step_leaves_the_claim_to_the_handler(game: services.GameInfo) -> None:
    await fight(game)
    with updates.claiming(903) as claim:
        with pytest.raises(services.NotMember):
            await swade.encounter_command(game.id, NextTurn(), actor_id=ALICE, rng=random.Random())
        assert not claim.taken
        assert await updates.settle(claim)  # what the middleware does after the refusal
    assert await ProcessedUpdate.filter(update_id=903).exists()


async def test_a_roll_and_its_claim_are_one_transaction(game: services.GameInfo) -> None:
    def roll() -> object:
        return services.log_roll(
            user_id=GM,
            chat_id=game.chat_id,
            topic_id=None,
            game_id=game.id,
            command="r",
            args="d6",
            result={"kind": "roll", "total": 3},
        )

    with updates.claiming(904) as claim:
        await roll()
    assert claim.taken
    with updates.claiming(904), pytest.raises(updates.DuplicateUpdate):
        await roll()
    assert await RollLog.filter(game_id=game.id).count() == 1


async def test_a_hidden_roll_and_its_claim_are_one_transaction(game: services.GameInfo) -> None:
    def roll() -> object:
        return services.create_hidden_roll(
            user_id=GM, game_id=game.id, chat_id=game.chat_id, topic_id=None,
            command="r", args="d20", result={"kind": "roll", "total": 11},
        )  # fmt: skip

    with updates.claiming(905):
        record = await roll()
    assert services.verify_roll(await services.get_roll(record.id))  # as stored, it checks
    with updates.claiming(905), pytest.raises(updates.DuplicateUpdate):
        await roll()
    assert await RollLog.filter(game_id=game.id, hidden=True).count() == 1
    await services.end_game(game.id, actor_id=GM)
    with pytest.raises(services.GameEnded):
        await roll()
