"""One roll per turn through the store (issue 26 item 1): the system's kind of rng (bits)
commits each turn to a seed when the turn opens; a seal commits to the choices only, the
dice are drawn when both are sealed from the seed and both receipts, stored in the events;
the revealed seed verifies against the hash the topic was given."""

from __future__ import annotations

import random

from engine import duel
from engine.duel.actions import Attack, Block, Dodge
from engine.duel.dice import faces_of, mixed_receipts
from engine.services import aggregates as agg
from engine.services import duel as duels
from tests.engine.services.conftest import ALICE, BOB, GM

from .conftest import TOPIC


async def test_a_committed_turn_draws_its_dice_when_both_are_in_and_the_seed_verifies(
    duel_game,
) -> None:
    rng = random.Random(26)
    out = await duels.start_duel(
        duel_game.id, thread=TOPIC, a="Бьорн", b="Такеда", actor_id=GM, rng=rng
    )
    (configured,) = out.events
    assert isinstance(configured, duel.Configured) and len(configured.seed) == 32
    posted = duel.dice_hash(out.state.dice_seed)  # the topic's line at the turn's start
    first = await duels.submit_turn(
        duel_game.id, TOPIC, fighter="a", actions=(Attack("left"), Block("left")), turn=1,
        actor_id=ALICE, rng=rng,
    )  # fmt: skip
    (sealed,) = first.events
    assert not list(faces_of(sealed.sealed.submission))  # the choices only: no die yet
    await duels.submit_turn(
        duel_game.id, TOPIC, fighter="a", actions=(Attack("top", ap=3), Dodge("right")), turn=1,
        actor_id=ALICE, rng=rng,
    )  # fmt: skip
    second = await duels.submit_turn(
        duel_game.id, TOPIC, fighter="b", actions=(Attack("right"),), turn=1, actor_id=BOB,
        rng=rng,
    )  # fmt: skip
    submitted, drawn = second.events
    assert isinstance(submitted, duel.Submitted) and isinstance(drawn, duel.DiceDrawn)
    assert all(list(faces_of(s)) for s in drawn.submissions)
    # the stored events hold the dice: the duel read back has them without the seed's help
    view = await duels.current_duel(duel_game.id, TOPIC)
    assert view is not None
    steps = await agg.history(duel_game.id, view.stream)
    assert [e["type"] for s in steps for e in s.events][-2:] == ["Submitted", "DiceDrawn"]
    assert [s.submission for s in view.state.pending] == list(drawn.submissions)
    published = await duels.publish_turn(duel_game.id, TOPIC, turn=1, actor_id=GM, rng=rng)
    (event,) = published.events
    assert isinstance(event, duel.TurnPublished) and event.seed != configured.seed
    turn = event.published
    assert turn.seed == configured.seed
    receipts = mixed_receipts(turn)
    assert receipts is not None
    assert all(duel.verify_dice(turn.seed, posted, s, receipts) for s in turn.proposal.submissions)
    # the replaced submission was never drawn: it holds no die, only its receipt
    (replaced,) = turn.replaced
    assert not list(faces_of(replaced.submission))
    assert replaced.submission.receipt_checks(replaced.receipt, replaced.salt)
    # the next turn is committed to the new seed
    assert published.state.dice_seed == event.seed
