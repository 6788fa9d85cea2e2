"""One roll per turn through the store (issue 26 item 1): the system's kind of rng (bits)
commits each turn's dice to a seed when the turn opens; a change of a sealed turn keeps
every die; the revealed seed verifies against the hash the topic was given."""

from __future__ import annotations

import random

from engine import duel
from engine.duel.actions import Attack, Block, Dodge
from engine.duel.dice import faces_of
from engine.services import duel as duels
from tests.engine.services.conftest import ALICE, BOB, GM

from .conftest import TOPIC


async def test_a_committed_turn_keeps_its_dice_and_the_seed_verifies(duel_game) -> None:
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
    seen = {slot: face for slot, _, face in faces_of(first.events[0].sealed.submission)}
    changed = await duels.submit_turn(
        duel_game.id, TOPIC, fighter="a", actions=(Attack("top", ap=3), Dodge("right")), turn=1,
        actor_id=ALICE, rng=rng,
    )  # fmt: skip
    kept = {slot: face for slot, _, face in faces_of(changed.events[0].sealed.submission)}
    assert kept == seen  # the same three dice: attack, its damage, the defense
    await duels.submit_turn(
        duel_game.id, TOPIC, fighter="b", actions=(Attack("right"),), turn=1, actor_id=BOB,
        rng=rng,
    )  # fmt: skip
    published = await duels.publish_turn(duel_game.id, TOPIC, turn=1, actor_id=GM, rng=rng)
    (event,) = published.events
    assert isinstance(event, duel.TurnPublished) and event.seed != configured.seed
    turn = event.published
    assert turn.seed == configured.seed
    assert all(duel.verify_dice(turn.seed, posted, s) for s in turn.proposal.submissions)
    # the replaced submission's dice are the seed's too (its receipt is revealed as well)
    assert all(duel.verify_dice(turn.seed, posted, s.submission) for s in turn.replaced)
    # the next turn is committed to the new seed
    assert published.state.dice_seed == event.seed
